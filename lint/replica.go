package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/resolve"
)

// replicaDirective is `# vlaunch:replica=NAME`: the file starts one node of
// the independent replica NAME (several `vllm serve` deployments behind a
// load balancer, as `vlaunch generate` writes a spec's parallelism.replicas).
// The cross-node rules then take each replica's files as one deployment
// instead of all files as one.
const replicaDirective = "vlaunch:replica="

// parseReplicaDirectives returns each input's replica, by file name (the
// first directive of a file counts).
func parseReplicaDirectives(inputs []Input) map[string]string {
	out := map[string]string{}
	for _, in := range inputs {
		for _, l := range strings.Split(string(in.Data), "\n") {
			hash := strings.Index(l, "#")
			if hash < 0 {
				continue
			}
			body := strings.TrimSpace(l[hash+1:])
			if name, ok := strings.CutPrefix(body, replicaDirective); ok {
				name, _, _ = strings.Cut(name, " ")
				if _, seen := out[in.Name]; !seen && name != "" {
					out[in.Name] = name
				}
			}
		}
	}
	return out
}

// tagReplicas makes each replica its own deployment: invocations of a file
// with a replica directive (and no manifest object of their own) get the
// replica's name as their deployment tag.
func tagReplicas(invs []*launch.Invocation, replicas map[string]string) {
	for _, inv := range invs {
		if r, ok := replicas[inv.File]; ok && inv.Deployment == "" {
			inv.Deployment = "replica " + r
		}
	}
}

// specReplicaNodes is how many nodes of the spec one replica spans, and the
// index of each replica's first node (its primary): resolve.ReplicaNodes,
// the generator's placement.
func specReplicaNodes(p *pass) (per int, heads []int) { return resolve.ReplicaNodes(p.Spec) }

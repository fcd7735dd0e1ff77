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

// hostDirective is `# vlaunch:host=NAME`: the file starts a server on host
// NAME next to other files' (`vlaunch generate` writes it for replicas
// smaller than a node, one script each). Files naming one host run on one
// host, whatever their GPU lists say, so the rules compare their ports and
// GPUs (VL212, VL223, VL228); files naming different hosts never share one.
const hostDirective = "vlaunch:host="

// parseReplicaDirectives returns each input's replica, by file name (the
// first directive of a file counts).
func parseReplicaDirectives(inputs []Input) map[string]string {
	return parseDirectives(inputs, replicaDirective)
}

// parseHostDirectives returns each input's host directive, by file name.
func parseHostDirectives(inputs []Input) map[string]string {
	return parseDirectives(inputs, hostDirective)
}

// parseDirectives returns each input's `# PREFIXvalue` directive, by file
// name (the first of a file counts).
func parseDirectives(inputs []Input, prefix string) map[string]string {
	out := map[string]string{}
	for _, in := range inputs {
		for _, l := range strings.Split(string(in.Data), "\n") {
			hash := strings.Index(l, "#")
			if hash < 0 {
				continue
			}
			body := strings.TrimSpace(l[hash+1:])
			if name, ok := strings.CutPrefix(body, prefix); ok {
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

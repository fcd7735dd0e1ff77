package resolve

import (
	"fmt"

	"github.com/vlaunch/vlaunch/vllm"
)

// Placement kinds: how the nodes of a layout cooperate.
const (
	// KindSingle is one node running one `vllm serve` (any DP/TP/PP inside it).
	KindSingle = "single"
	// KindDP is one `vllm serve` per node joined by vLLM's DP coordinator
	// (engines fit on one node; node 0 primary, the others --headless).
	KindDP = "dp"
	// KindNNodes is one engine spanning nodes through --nnodes/--node-rank.
	KindNNodes = "nnodes"
	// KindRay is one engine spanning nodes through a Ray cluster.
	KindRay = "ray"
)

// kindFlags are the flags each kind's commands use beyond the common ones:
// a release without one of them cannot run a layout of that kind.
var kindFlags = map[string][]string{
	KindDP:     {"data-parallel-size-local", "data-parallel-address", "data-parallel-rpc-port", "headless", "data-parallel-start-rank"},
	KindNNodes: {"nnodes", "node-rank", "master-addr", "master-port", "headless"},
	KindRay:    {"distributed-executor-backend"},
}

// placementKind: a spanning engine uses --nnodes where the release has it
// (vllm.Defaults.MultiNodeEngine) and Ray otherwise; engines that fit a
// node are one server, or one per node joined by the DP coordinator (in
// each replica: replicas never talk to each other).
func placementKind(p Placement, r vllm.Release) string {
	switch {
	case p.Spanning && r.Defaults().MultiNodeEngine == "nnodes":
		return KindNNodes
	case p.Spanning:
		return KindRay
	case p.ReplicaNodes > 1:
		return KindDP
	}
	return KindSingle
}

// layoutNeed is a flag a layout needs, and the field that asks for it.
type layoutNeed struct{ path, flag string }

// expressible refuses a layout the release has no flags for: expert
// parallelism before --enable-expert-parallel, DP before
// --data-parallel-size, a kind's multi-node flags before they existed.
// The generator's commands use exactly these flags, so what passes here
// can be written.
func expressible(l Layout, kind string, r vllm.Release) error {
	var need []layoutNeed
	if l.EP {
		need = append(need, layoutNeed{"parallelism.expert", "enable-expert-parallel"})
	}
	if l.DP > 1 {
		need = append(need, layoutNeed{"parallelism.data", "data-parallel-size"})
	}
	for _, f := range kindFlags[kind] {
		need = append(need, layoutNeed{"parallelism", f})
	}
	for _, n := range need {
		if _, ok := r.Flag(n.flag); !ok {
			e := fieldErr(n.path, fmt.Sprintf("vLLM %s has no --%s%s, which this layout (%s) needs", r.Version, n.flag, SinceNote(n.flag), kind),
				"change the layout or vllm.version")
			e.Unsupported = true
			return e
		}
	}
	return nil
}

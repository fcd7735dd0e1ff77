package resolve

import (
	"fmt"

	"github.com/vlaunch/vlaunch/spec"
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
	if e := spanningDPUnsupported(l, kind, r); e != nil {
		return e
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

// spanningDPUnsupported refuses DP ranks whose engine (TP x PP) spans
// nodes on a release that runs such an engine only through Ray (kind
// KindRay: no certain --nnodes). vLLM runs several of them from 0.11.1 on:
// with --nnodes, every node of every DP rank runs `vllm serve
// --data-parallel-size D --nnodes N --node-rank R`, arg_utils.py infers
// the node's DP rank as R x local world size / (TP x PP) and its local DP
// size as 1, and the workers of a DP rank on other nodes join its leader
// through the inner-DP group (parallel_state.py `_INNER_DP_WORLD`,
// multiproc_executor.py `node_rank_within_dp`; PR #23691, first in
// v0.11.1, read at the v0.11.1, v0.15.0, v0.20.0 and v0.24.0 tags). Ray's
// "span" DP pack strategy (PR #26367) came in the same release; before
// it, every DP rank's TP x PP group sat on one node.
func spanningDPUnsupported(l Layout, kind string, r vllm.Release) *FieldError {
	if kind != KindRay || l.DP <= 1 {
		return nil
	}
	e := fieldErr("parallelism.data",
		fmt.Sprintf("TP %d x PP %d spans nodes with DP %d: vLLM runs DP ranks whose engine spans nodes with --nnodes (PR #23691; %s), and vlaunch writes --nnodes only for a release a source confirms it in; for vLLM %s it generates a spanning engine through Ray, with DP = 1 only",
			l.TP, l.PP, l.DP, nnodesSpan(), r.Version),
		"use DP = 1, make TP x PP fit one node, or a vllm.version where --nnodes is confirmed")
	e.Unsupported = true
	return e
}

// SpanningDPProblem is spanningDPUnsupported for a spec: nil unless its
// layout places (PlacementProblem is nil), spans nodes with DP > 1 and
// the release runs spanning engines only through Ray. validate reports
// it (SPEC102), so that validate and generate (GEN011) agree.
func SpanningDPProblem(d *spec.Deployment, r vllm.Release) *FieldError {
	if d.Parallelism.Auto || d.Parallelism.Data <= 1 || len(d.Hardware.Nodes) == 0 {
		return nil
	}
	d = d.EngineView()
	gpus := make([]int, len(d.Hardware.Nodes))
	for i, n := range d.Hardware.Nodes {
		gpus[i] = n.GPUs
	}
	l := layoutFromSpec(d)
	p, err := place(l, gpus)
	if err != nil || !p.Spanning {
		return nil
	}
	return spanningDPUnsupported(l, placementKind(p, r), r)
}

// nnodesSpan words --nnodes' span (SpanNote), "unknown" without one.
func nnodesSpan() string {
	if s, ok := vllm.FlagSpan("nnodes"); ok {
		return SpanNote(s)
	}
	return "first release unknown"
}

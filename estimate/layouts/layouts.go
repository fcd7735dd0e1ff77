// Package layouts enumerates the parallel layouts vlaunch searches on a
// set of hosts: TP, PP, DP and expert parallelism of one engine, and
// independent replicas of it. `vlaunch plan`, `parallelism: auto`
// (estimate/search) and check's alternatives (estimate/slo) take them from
// here, so the three never disagree on what a layout is allowed to be.
package layouts

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Enumerate lists the layouts that use all nodes × perNode GPUs:
//
//   - TP is a power of two dividing perNode (a TP group never spans nodes)
//     and the model's attention heads (vLLM requires heads % TP == 0);
//   - PP is 1, or, only when TP = perNode, a divisor of the node count (a
//     pipeline spans whole nodes, one stage per node);
//   - DP = nodes × perNode / (TP × PP);
//   - EP off, and for MoE models also on (EP changes nothing for dense ones).
//
// The order is TP, then PP ascending, EP off before on.
func Enumerate(nodes, perNode int, m *catalog.Model) []input.Layout {
	moe := m != nil && m.IsMoE()
	var out []input.Layout
	total := nodes * perNode
	for tp := 1; tp <= perNode; tp *= 2 {
		if perNode%tp != 0 || m.TPSplitProblem(tp) != "" {
			continue
		}
		for pp := 1; pp <= nodes; pp++ {
			if nodes%pp != 0 || (pp > 1 && tp != perNode) {
				continue
			}
			for _, ep := range []bool{false, true} {
				if ep && !moe {
					continue
				}
				out = append(out, input.Layout{TP: tp, PP: pp, DP: total / (tp * pp), EP: ep, Nodes: nodes, GPUsPerNode: perNode})
			}
		}
	}
	return out
}

// All lists the layouts of the search on nodes × perNode GPUs: those
// of Enumerate for one replica on every whole share of the nodes — one
// replica on all of them, two on half each, … one per node — then for
// replicas smaller than a node, several to a node: for every g dividing
// perNode (g < perNode), nodes × perNode / g replicas each of Enumerate's
// layouts on g GPUs (TP × DP = g, PP 1: one replica never spans part of a
// node and part of another; resolve.Place's rule), each layout using every
// GPU. Inside a replica smaller than a node, DP > 1 comes only with expert
// parallelism: without it DP ranks are engines of their own (for a dense
// model the same prediction as that many more replicas, which the list
// already has), and leaving them out keeps plan's space small. Expert parallelism over an EP group of one rank (TP × DP = 1)
// changes nothing and is left out. `parallelism: auto` and `vlaunch plan`
// both search these (Placeable keeps the ones a release can place, Servable
// the ones whose block-quantized weights vLLM can split).
func All(nodes, perNode int, m *catalog.Model) []input.Layout {
	nodes, perNode = max(nodes, 1), max(perNode, 1)
	var out []input.Layout
	add := func(c input.Layout, replicas int) {
		c.Replicas, c.Nodes, c.GPUsPerNode = replicas, nodes, perNode
		if !(c.EP && c.EPSize() == 1) && replicas <= spec.MaxReplicas { // more: a spec validate refuses
			out = append(out, c)
		}
	}
	for r := 1; r <= nodes; r++ {
		if nodes%r != 0 {
			continue
		}
		for _, c := range Enumerate(nodes/r, perNode, m) {
			add(c, r)
		}
	}
	for g := perNode - 1; g >= 1; g-- {
		if perNode%g != 0 {
			continue
		}
		for _, c := range Enumerate(1, g, m) {
			if c.DP > 1 && !c.EP {
				continue // see below
			}
			add(c, nodes*perNode/g)
		}
	}
	return out
}

// Placeable keeps the layouts resolve.Place puts on hosts (each node's GPU
// count) with release rel: the one rule `vlaunch generate` applies, so
// neither the search nor plan offers a layout generate refuses. DP ranks
// whose engine spans nodes (PP over nodes with DP > 1), which Place
// accepts from 0.11.1 (--nnodes), are left out: the search offered them
// never before, and its space stays as it was until their predictions are
// checked (a spec may still ask for them).
func Placeable(ls []input.Layout, hosts []int, rel vllm.Release) []input.Layout {
	out := ls[:0]
	for _, c := range ls {
		if p, err := resolve.Place(c, hosts, rel); err == nil && !(p.Spanning && c.DP > 1) {
			out = append(out, c)
		}
	}
	return out
}

// Servable keeps the layouts vLLM starts for model m's weights
// (resolve.Layout.BlockSplitProblem: a layout that splits block-quantized
// weights into partial blocks is refused; validate's SPEC124), with
// fromCheckpoint saying whether the served weights are the checkpoint's own.
func Servable(ls []input.Layout, m *catalog.Model, fromCheckpoint bool) []input.Layout {
	out := ls[:0]
	for _, c := range ls {
		if c.BlockSplitProblem(m, fromCheckpoint) == "" {
			out = append(out, c)
		}
	}
	return out
}

// Candidates are the layouts the search evaluates for in's hosts: All
// for its nodes, of which Allowed keeps those vlaunch can run there.
// `parallelism: auto` searches them, and check's alternatives
// (estimate/slo) take their independent replicas from them, so check
// names no layout plan would not try.
func Candidates(in *input.Input) []input.Layout {
	return Allowed(in, All(in.Layout.Nodes, in.Layout.GPUsPerNode, in.Model))
}

// Allowed keeps the layouts of ls that Placeable puts on in's hosts, with
// the weights Servable keeps and the decode context parallel size DCPFit
// keeps (each layout judged alone: a caller may pass a subset of All).
func Allowed(in *input.Input, ls []input.Layout) []input.Layout {
	return Placeable(DCPFit(Servable(ls, in.Model, in.WeightsFromCheckpoint), in.Model, in.DCPSize()), in.HostGPUs(), in.Release())
}

// DCPFit keeps the layouts whose tensor size vLLM splits into decode
// context parallel groups of dcp (vllm.DCPFits: TP a multiple of dcp;
// for GQA, dcp within TP / KV heads; validate's SPEC135), so that
// `parallelism: auto` never picks a layout the spec's
// decode_context_parallel_size cannot run on.
func DCPFit(ls []input.Layout, m *catalog.Model, dcp int) []input.Layout {
	out := ls[:0]
	for _, c := range ls {
		if vllm.DCPFits(c.TP, dcp, m.NumKVHeads, m.IsMLA()) {
			out = append(out, c)
		}
	}
	return out
}

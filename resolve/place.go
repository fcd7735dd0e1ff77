package resolve

import (
	"fmt"

	"github.com/vlaunch/vlaunch/vllm"
)

// Placement is where a layout's engines (one TP × PP group per DP rank) sit
// on the nodes, the way vlaunch generates bundles, replica after replica.
type Placement struct {
	// Spanning is true when one engine is larger than a node: each DP
	// rank's engine covers whole, equal nodes, the ranks one after
	// another (--nnodes counts them all; spanningDPUnsupported).
	Spanning bool
	// ReplicaNodes is how many nodes one replica spans (every replica
	// alike), ReplicaStart the index of each replica's first node: the
	// node that runs its API server.
	ReplicaNodes int
	ReplicaStart []int
	// Kind is how the nodes cooperate (KindSingle, KindDP, KindNNodes,
	// KindRay), which decides the flags the bundle's commands use.
	Kind string
	// Nodes has one slot per node, in the spec's order.
	Nodes []NodeSlot
	// SubNode is true when replicas are smaller than a node and share
	// nodes: each replica is one single-node `vllm serve` on GPUs of its
	// own (Sites), ReplicaNodes is 1 and ReplicaStart repeats a node as
	// many times as it runs replicas.
	SubNode bool
	// Sites, set with SubNode, is where each replica runs, in replica
	// order: its node and its GPUs there.
	Sites []Site
}

// Site is the share of a node one replica smaller than a node takes: its
// node, the first of its consecutive GPUs (their indices as the node
// numbers them) and how many, and its place among the node's replicas
// (Slot 0: the node's first; the generator derives per-replica ports
// from it).
type Site struct {
	Node, FirstGPU, GPUs, Slot int
}

// Devices are the site's GPU indices on its node, in order (what
// CUDA_VISIBLE_DEVICES or docker's --gpus device= list names).
func (s Site) Devices() []int {
	out := make([]int, s.GPUs)
	for i := range out {
		out[i] = s.FirstGPU + i
	}
	return out
}

// NodeSlot is one node's share of the layout.
type NodeSlot struct {
	// Used is false for a node the layout does not need.
	Used bool
	// Replica is the replica the node serves (0 when unused; with replicas
	// smaller than a node, the first of the node's), Replicas how many
	// replicas run on it (1 on a used node unless SubNode); Rank is the
	// node's place among that replica's nodes (0: its first).
	Replica, Replicas, Rank int
	// DPLocal engines run here, DP ranks DPStart .. DPStart+DPLocal-1
	// (both 0 for a spanning engine).
	DPLocal, DPStart int
	// IdleGPUs are GPUs of a used node no engine takes.
	IdleGPUs int
}

// UsedNodes is the number of nodes the layout runs on.
func (p Placement) UsedNodes() int {
	n := 0
	for _, s := range p.Nodes {
		if s.Used {
			n++
		}
	}
	return n
}

// Place is the one rule for "can vlaunch generate this layout on these
// nodes with this release" (nodeGPUs: each node's GPU count, in order),
// shared by the generator, the `parallelism: auto` search and `vlaunch
// plan`:
//
//   - an engine (TP × PP GPUs) that fits in a node: nodes are filled in order
//     with whole engines until the DP ranks run out; node 0 must run one;
//   - an engine larger than a node spans whole nodes of equal GPU count
//     (--nnodes or Ray, as the release does it); with DP > 1 each DP rank's
//     engine takes the next whole nodes, which only --nnodes expresses
//     (0.11.1 on: spanningDPUnsupported refuses it through Ray);
//   - independent replicas larger than a node take whole nodes, in order,
//     each placed by the rules above on the nodes the ones before left,
//     and alike (the same node shape, so every replica runs the same
//     commands and predicts the same); nodes after the last replica stay
//     idle;
//   - independent replicas smaller than a node (TP × PP × DP GPUs fewer
//     than node 0's) share nodes: each node, in order, takes as many
//     whole replicas as its GPUs hold, each on consecutive GPUs of its own
//     (Sites), never part of one node and part of another; GPUs left over
//     stay idle;
//   - the release has every flag the layout's commands need (expert
//     parallelism, DP, the multi-node flags of its kind: expressible).
//
// The error is a *FieldError naming the field to change; Unsupported is
// set when only the release stands in the way.
func Place(l Layout, nodeGPUs []int, r vllm.Release) (Placement, error) {
	p, err := place(l, nodeGPUs)
	if err != nil {
		return p, err
	}
	p.Kind = placementKind(p, r)
	if err := expressible(l, p.Kind, r); err != nil {
		return Placement{}, err
	}
	return p, nil
}

// place is Place's arithmetic: where the engines go, whatever the release
// (remembered: see placeMemo).
func place(l Layout, nodeGPUs []int) (Placement, error) {
	return placeMemo.of(l, nodeGPUs)
}

// placeFresh is place without the memo.
func placeFresh(l Layout, nodeGPUs []int) (Placement, error) {
	if len(nodeGPUs) == 0 {
		return Placement{}, fieldErr("hardware.nodes", "the spec has no nodes", "")
	}
	if l.TP*l.PP <= 0 || l.DP <= 0 || l.Replicas < 0 {
		return Placement{}, fieldErr("parallelism", "tensor, pipeline, data parallel sizes and replicas must be positive", "")
	}
	if l.ReplicaCount() > 1 && l.GPUs() < nodeGPUs[0] {
		return placeSubNode(l, nodeGPUs)
	}
	if l.ReplicaCount() > 1 {
		return placeReplicas(l, nodeGPUs)
	}
	return placeReplica(l, nodeGPUs)
}

// placeReplica places one replica's engines on the first of the nodes.
func placeReplica(l Layout, nodeGPUs []int) (Placement, error) {
	perEngine := l.TP * l.PP
	var p Placement
	var err error
	if perEngine > nodeGPUs[0] {
		p, err = placeSpanning(l, nodeGPUs, perEngine)
	} else {
		p, err = placeDP(l, nodeGPUs, perEngine)
	}
	if err == nil {
		p.ReplicaStart, p.ReplicaNodes = []int{0}, p.span()
		for i := range p.ReplicaNodes {
			p.Nodes[i].Rank = i
			if p.Nodes[i].Used {
				p.Nodes[i].Replicas = 1
			}
		}
	}
	return p, err
}

// span is the number of nodes up to the last used one.
func (p Placement) span() int {
	n := 0
	for i, s := range p.Nodes {
		if s.Used {
			n = i + 1
		}
	}
	return n
}

// placeDP fills nodes in order with whole engines until DP ranks run out.
func placeDP(l Layout, nodeGPUs []int, perEngine int) (Placement, error) {
	p := Placement{Nodes: make([]NodeSlot, len(nodeGPUs))}
	left := l.DP
	for i, g := range nodeGPUs {
		s := &p.Nodes[i]
		s.DPLocal = min(max(g, 0)/perEngine, left)
		s.DPStart = l.DP - left
		left -= s.DPLocal
		if s.DPLocal > 0 {
			s.Used, s.IdleGPUs = true, g-s.DPLocal*perEngine
		}
	}
	if left > 0 {
		return Placement{}, fieldErr("parallelism.data",
			fmt.Sprintf("DP %d x TP %d x PP %d needs %d GPUs in whole engines; the nodes hold only %d engines",
				l.DP, l.TP, l.PP, l.DP*perEngine, l.DP-left), "lower parallelism.data or add nodes")
	}
	if !p.Nodes[0].Used {
		return Placement{}, fieldErr("hardware.nodes[0]", "node 0 runs no engine", "")
	}
	return p, nil
}

// placeSpanning places the DP ranks' engines, each larger than a node, on
// the first nodes: rank k on nodes k×n .. k×n+n-1 for an engine of n
// nodes, which is where vLLM's --nnodes puts it (arg_utils.py infers a
// node's DP rank as node rank × GPUs per node / (TP × PP)).
func placeSpanning(l Layout, nodeGPUs []int, perEngine int) (Placement, error) {
	per := nodeGPUs[0]
	for i, g := range nodeGPUs {
		if g != per {
			return Placement{}, fieldErr(fmt.Sprintf("hardware.nodes[%d].gpus", i),
				"an engine spanning nodes needs the same GPU count on every node", "")
		}
	}
	if per <= 0 || perEngine%per != 0 || perEngine/per > len(nodeGPUs) {
		return Placement{}, fieldErr("parallelism",
			fmt.Sprintf("TP %d x PP %d = %d GPUs is not a whole number of %d-GPU nodes within the %d nodes given",
				l.TP, l.PP, perEngine, per, len(nodeGPUs)), "")
	}
	k := perEngine / per // nodes per DP rank
	if l.DP*k > len(nodeGPUs) {
		return Placement{}, fieldErr("parallelism.data",
			fmt.Sprintf("DP %d engines of TP %d x PP %d take %d nodes each (%d in all); the spec has %d nodes",
				l.DP, l.TP, l.PP, k, l.DP*k, len(nodeGPUs)), "lower parallelism.data or add nodes")
	}
	p := Placement{Spanning: true, Nodes: make([]NodeSlot, len(nodeGPUs))}
	for i := range l.DP * k {
		p.Nodes[i].Used = true
		p.Nodes[i].DPStart = i / k
	}
	return p, nil
}

package generator

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
)

// layoutFor places the layout on the nodes (resolve.Place, the rule the
// `parallelism: auto` search and `vlaunch plan` share: a layout the release
// cannot express is GEN011, one the nodes cannot hold GEN002), warns about
// the GPUs and nodes it leaves idle, and makes the node plans of the nodes
// keep picks (every node for a bundle; Refusal's verdict needs the first
// of each role only, whatever the cluster's size).
func layoutFor(r *resolve.Deployment, keep func(resolve.Placement) []int) (resolve.Placement, []NodePlan, diag.Diagnostics) {
	d := r.Spec
	pl, err := r.Place() // a P/D pool sharing a node: within its share (resolve.NodeShare)
	if err != nil {
		code, path, msg, hint := CodeLayout, "parallelism", err.Error(), ""
		if fe, ok := err.(*resolve.FieldError); ok {
			path, msg, hint = fe.Path, fe.Msg, fe.Hint
			if fe.Unsupported {
				code = CodeUnsupported
			}
		}
		return pl, nil, diag.Diagnostics{gdiag(d, code, diag.Error, path, msg, hint)}
	}
	if fe := pl.PortsProblem(d.VLLM.Port, d.VLLM.RPCPort, r.Layout.DP); fe != nil { // validate's rule too; here for `parallelism: auto`
		return pl, nil, diag.Diagnostics{gdiag(d, CodeLayout, diag.Error, fe.Path, fe.Msg, fe.Hint)}
	}
	p := &Plan{Spec: d, Layout: pl.Kind, placement: pl, extLB: extLBWanted(r)}
	var nodes []NodePlan
	for _, i := range keep(pl) {
		nodes = append(nodes, p.unitsAt(i)...)
	}
	return pl, nodes, layoutWarnings(p, r.Layout)
}

// unitsAt are the node plans of node i, each with its script name: the
// node's own, or with replicas smaller than a node one per replica on it
// (its GPUs, its API port: the spec's port plus its place on the node).
func (p *Plan) unitsAt(i int) []NodePlan {
	slot := p.placement.Nodes[i]
	if p.extLB && slot.Used {
		return p.rankUnitsAt(i)
	}
	if !p.placement.SubNode || !slot.Used {
		n := p.nodeAt(i)
		n.ScriptName = "node" + itoa(i) + ".sh"
		return []NodePlan{n}
	}
	out := make([]NodePlan, slot.Replicas)
	for k := range out {
		site := p.placement.Sites[slot.Replica+k]
		n := p.nodeAt(i)
		n.Replica, n.Slot, n.GPUs, n.Devices = slot.Replica+k, site.Slot, site.GPUs, site.Devices()
		n.Port += site.Slot
		n.ScriptName = fmt.Sprintf("node%d-replica%d.sh", i, n.Replica+1)
		out[k] = n
	}
	return out
}

// allNodes keeps every node (MakePlan).
func allNodes(pl resolve.Placement) []int {
	out := make([]int, len(pl.Nodes))
	for i := range out {
		out[i] = i
	}
	return out
}

// leaderNodes keeps the first node of each role (Refusal): a role follows
// from a used node's rank within its replica (first or not) and the
// layout's kind (nodeRole).
func leaderNodes(pl resolve.Placement) []int {
	first, other := -1, -1
	for i, s := range pl.Nodes {
		switch {
		case !s.Used:
		case s.Rank == 0 && first < 0:
			first = i
		case s.Rank > 0 && other < 0:
			other = i
		}
	}
	var out []int
	for i := range pl.Nodes {
		if i == first || i == other {
			out = append(out, i)
		}
	}
	return out
}

// nodeAt is node i's plan as the placement makes it (without its script
// name): where it sits, its share and its role.
func (p *Plan) nodeAt(i int) NodePlan {
	n, slot := p.Spec.Hardware.Nodes[i], p.placement.Nodes[i]
	np := NodePlan{Index: i, Name: n.Name, Address: n.Address, GPUs: n.GPUs, Interface: n.Interface, RDMADevices: n.RDMADevices,
		Replica: slot.Replica, Rank: slot.Rank, Role: nodeRole(slot, p.Layout), Port: p.Spec.VLLM.Port}
	if !p.placement.Spanning {
		np.DPLocal, np.DPStart = slot.DPLocal, slot.DPStart
	}
	return np
}

// nodeRole: whole engines per node (DP) have node 0 of each replica
// primary and the others headless; an engine spanning nodes (--nnodes or
// Ray, as the release does it) has its first node primary or Ray head and
// the others headless or Ray workers.
func nodeRole(s resolve.NodeSlot, kind string) string {
	switch {
	case !s.Used:
		return RoleIdle
	case s.Rank == 0 && kind == LayoutRay:
		return RoleRayHead
	case s.Rank == 0:
		return RolePrimary
	case kind == LayoutRay:
		return RoleRayWorker
	}
	return RoleHeadless
}

// layoutWarnings names the GPUs of used nodes no engine takes (whole
// engines per node) and the nodes the layout does not need, in node order.
func layoutWarnings(p *Plan, l resolve.Layout) diag.Diagnostics {
	var ds diag.Diagnostics
	d := p.Spec
	for i, slot := range p.placement.Nodes {
		if !p.placement.Spanning && slot.Used && slot.IdleGPUs > 0 && p.placement.SubNode {
			n := p.nodeAt(i)
			ds = append(ds, gdiag(d, CodeIdleGPUs, diag.Warning, fmt.Sprintf("hardware.nodes[%d].gpus", i),
				fmt.Sprintf("node %s leaves %d of %d GPUs unused (%d replicas x %d GPUs)", n.Name, slot.IdleGPUs, n.GPUs,
					slot.Replicas, l.GPUs()), ""))
		} else if !p.placement.Spanning && slot.Used && slot.IdleGPUs > 0 {
			n := p.nodeAt(i)
			ds = append(ds, gdiag(d, CodeIdleGPUs, diag.Warning, fmt.Sprintf("hardware.nodes[%d].gpus", i),
				fmt.Sprintf("node %s leaves %d of %d GPUs unused (%d engines x TP %d x PP %d)", n.Name, slot.IdleGPUs, n.GPUs,
					n.DPLocal, l.TP, l.PP), ""))
		}
	}
	for i, slot := range p.placement.Nodes {
		if !slot.Used {
			ds = append(ds, gdiag(d, CodeIdleGPUs, diag.Warning, fmt.Sprintf("hardware.nodes[%d]", i),
				fmt.Sprintf("node %s is not needed by the layout and gets no script", d.Hardware.Nodes[i].Name), ""))
		}
	}
	return ds
}

// setReplicas records the replicas the placement made: their count, the
// nodes each spans (from every node's slot, whichever nodes Nodes holds)
// and the first nodes among Nodes.
func (p *Plan) setReplicas() {
	p.Replicas, p.ReplicaNodes, p.Primaries = 0, 0, nil
	for _, s := range p.placement.Nodes {
		if s.Used && s.Rank == 0 {
			p.Replicas += max(1, s.Replicas)
		}
		if s.Used && s.Replica == 0 {
			p.ReplicaNodes++
		}
	}
	for i := range p.Nodes {
		if n := &p.Nodes[i]; n.Role != RoleIdle && n.Rank == 0 {
			p.Primaries = append(p.Primaries, n)
		}
	}
}

// replicaGPUs is the number of GPUs of the used nodes of a replica.
func (p *Plan) replicaGPUs(replica int) int {
	total := 0
	for i, s := range p.placement.Nodes {
		if s.Used && s.Replica == replica {
			total += p.Spec.Hardware.Nodes[i].GPUs
		}
	}
	return total
}

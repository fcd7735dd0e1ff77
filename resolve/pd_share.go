package resolve

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// NodeShare is the part of a node one pool runs on when the prefill and
// the decode pool share the node (a node named in both pools' nodes, as
// vLLM's own disaggregated examples run P and D on the GPUs of one host,
// each `vllm serve` with its own CUDA_VISIBLE_DEVICES, port and
// VLLM_NIXL_SIDE_CHANNEL_PORT).
//
// The split is deterministic: the prefill pool's instances come first on
// the node (GPUs from 0, slots from 0, the side-channel ports from the
// base), then the decode pool's (from the first GPU, slot and side-channel
// port the prefill instances leave). Every instance of a pool that shares a
// node runs on consecutive GPUs of one node (Placement.SubNode: its own
// CUDA_VISIBLE_DEVICES or --gpus device= list).
type NodeShare struct {
	// Shared marks a node both pools name; the other fields are then set.
	Shared bool
	// FirstGPU is the pool's first GPU on the node (the node's numbering),
	// GPUs how many of the node's GPUs the pool may take there.
	FirstGPU, GPUs int
	// FirstSlot is the pool's first place among the node's instances (its
	// instances' API ports are vllm.port + slot, DP RPC ports vllm.rpc_port
	// + slot): the slots below it are the other pool's.
	FirstSlot int
	// SidePortOffset is how far past the side-channel base the pool's
	// first instance on the node starts (the other pool's instances there
	// listen below it).
	SidePortOffset int
	// With is the other pool's name.
	With string
}

// SharesNode reports whether the pool runs on a node the other pool also
// runs on (Shares has a Shared entry).
func (d *Deployment) SharesNode() bool {
	for _, s := range d.Shares {
		if s.Shared {
			return true
		}
	}
	return false
}

// Place places the deployment's layout on its nodes (Place, the
// generator's rule); a pool sharing a node places every instance on
// consecutive GPUs of one node (the sub-node rule) within its share of
// each shared node, the sites carrying the node's GPU numbers and slots.
func (d *Deployment) Place() (Placement, error) {
	if !d.SharesNode() {
		return Place(d.Layout, d.NodeGPUs(), d.Release)
	}
	return placeShared(d.Layout, d.NodeGPUs(), d.Shares, d.Release)
}

// placeShared is Deployment.Place of a pool sharing a node.
func placeShared(l Layout, nodeGPUs []int, shares []NodeShare, r vllm.Release) (Placement, error) {
	gpus := append([]int(nil), nodeGPUs...)
	for i, s := range shares {
		if s.Shared && i < len(gpus) {
			gpus[i] = s.GPUs
		}
	}
	p, err := placeSubNode(l, gpus)
	if err != nil {
		return p, err
	}
	p.Kind = placementKind(p, r)
	if err := expressible(l, p.Kind, r); err != nil {
		return Placement{}, err
	}
	for k := range p.Sites {
		s := &p.Sites[k]
		if s.Node < len(shares) && shares[s.Node].Shared {
			s.FirstGPU += shares[s.Node].FirstGPU
			s.Slot += shares[s.Node].FirstSlot
		}
	}
	return p, nil
}

// SharedNodes are the names of the nodes both pools name, in
// hardware.nodes order.
func SharedNodes(d *spec.Deployment) []string {
	g := d.Disaggregation
	if g == nil {
		return nil
	}
	in := map[string]int{}
	for _, role := range spec.Roles {
		seen := map[string]bool{}
		for _, n := range g.Pool(role).Nodes {
			if !seen[n] {
				seen[n] = true
				in[n]++
			}
		}
	}
	var out []string
	for _, n := range d.Hardware.Nodes {
		if in[n.Name] == len(spec.Roles) {
			out = append(out, n.Name)
		}
	}
	return out
}

// shareNodes gives each pool its share of the nodes both pools name
// (NodeShare: prefill first, then decode) and returns the pools'
// deployments with Shares set (copies; roles unchanged when no node is
// shared). The error (a *FieldError at the pool's nodes entry) refuses a
// shared node on Kubernetes, an instance larger than a shared node, and
// pools whose GPUs on a shared node exceed its count.
func shareNodes(d *spec.Deployment, roles []*Deployment) ([]*Deployment, error) {
	shared := SharedNodes(d)
	if len(shared) == 0 {
		return roles, nil
	}
	if d.Runtime.Kind == "kubernetes" {
		return nil, fieldErr(poolNodePath(d, spec.RolePrefill, shared[0]),
			fmt.Sprintf("node %q is in both pools, which vlaunch does not deploy on Kubernetes: the pools' pods would need hostPID to reach each other's GPU memory over CUDA IPC (openucx/ucx#11513, vllm-project/vllm#55906), a security-sensitive setting vlaunch does not write, and the device plugin, not vlaunch, picks each pod's GPUs", shared[0]),
			"give each pool nodes of its own on Kubernetes, or deploy the shared node with runtime.kind bare or docker")
	}
	isShared := map[string]bool{}
	for _, n := range shared {
		isShared[n] = true
	}
	out := make([]*Deployment, len(roles))
	used := map[string]NodeShare{} // what the pools before took on each shared node: GPUs, slots, side ports
	for ri, role := range spec.Roles {
		r := *roles[ri]
		r.Shares = make([]NodeShare, len(r.Nodes))
		per := r.Layout.GPUs()
		for i, n := range r.Nodes {
			if !isShared[n.Name] {
				continue
			}
			if per > n.GPUs {
				return nil, fieldErr(poolNodePath(d, role, n.Name),
					fmt.Sprintf("node %q is in both pools, but one %s instance (TP %d x PP %d x DP %d = %d GPUs) is larger than its %d GPUs: a node both pools use runs whole instances of each", n.Name, role, r.Layout.TP, r.Layout.PP, r.Layout.DP, per, n.GPUs),
					"give the "+role+" pool nodes of its own, or make its instances fit inside one node")
			}
			u := used[n.Name]
			r.Shares[i] = NodeShare{Shared: true, FirstGPU: u.GPUs, GPUs: max(0, n.GPUs-u.GPUs), FirstSlot: u.FirstSlot,
				SidePortOffset: u.SidePortOffset, With: other(role)}
		}
		pl, err := placeShared(r.Layout, r.NodeGPUs(), r.Shares, r.Release)
		if err != nil {
			return nil, sharedOverflow(d, role, &r, err)
		}
		sidePer := len(vllm.NixlSidePorts(r.Release.Version, 0, 0, r.Layout.DP, r.Layout.TP))
		for i, s := range pl.Nodes {
			if !s.Used || !isShared[r.Nodes[i].Name] {
				continue
			}
			u := used[r.Nodes[i].Name]
			u.GPUs = r.Shares[i].FirstGPU + s.Replicas*per
			u.FirstSlot += s.Replicas
			u.SidePortOffset += s.Replicas * sidePer
			used[r.Nodes[i].Name] = u
			r.Shares[i].GPUs = s.Replicas * per // the pool's own GPUs there, no more
		}
		out[ri] = &r
	}
	return out, nil
}

// sharedOverflow words why a pool's instances do not fit on its nodes
// once the pool before it took its share of the shared ones, at the first
// shared node of the pool's nodes.
func sharedOverflow(d *spec.Deployment, role string, r *Deployment, err error) error {
	if fe, ok := err.(*FieldError); ok && fe.Unsupported {
		return fe
	}
	var at string
	var room []string
	for i, n := range r.Nodes {
		sh := r.Shares[i]
		switch {
		case !sh.Shared:
			room = append(room, fmt.Sprintf("%s: %d GPUs", n.Name, n.GPUs))
		case sh.FirstGPU == 0:
			room = append(room, fmt.Sprintf("%s: %d GPUs", n.Name, sh.GPUs))
		default:
			room = append(room, fmt.Sprintf("%s: %d of %d GPUs left after the %s pool's %d", n.Name, sh.GPUs, n.GPUs, sh.With, sh.FirstGPU))
		}
		if sh.Shared && at == "" {
			at = n.Name
		}
	}
	l := r.Layout
	msg := fmt.Sprintf("%d %s instance(s) of TP %d x PP %d x DP %d (%d GPUs each, each inside one node since the pool shares node %q with the %s pool) do not fit on its nodes (%s)",
		d.Disaggregation.Pool(role).InstanceCount(), role, l.TP, l.PP, l.DP, l.GPUs(), at, other(role), strings.Join(room, "; "))
	return fieldErr(poolNodePath(d, role, at), msg,
		fmt.Sprintf("lower disaggregation.%s.instances or its parallelism, or give a pool nodes of its own (a shared node's GPUs go to the prefill pool first, then to the decode pool)", role))
}

// other is the other pool's name.
func other(role string) string {
	if role == spec.RolePrefill {
		return spec.RoleDecode
	}
	return spec.RolePrefill
}

// poolNodePath is the path of node name in role's nodes list
// ("disaggregation.decode.nodes[0]").
func poolNodePath(d *spec.Deployment, role, name string) string {
	for i, n := range d.Disaggregation.Pool(role).Nodes {
		if n == name {
			return fmt.Sprintf("disaggregation.%s.nodes[%d]", role, i)
		}
	}
	return "disaggregation." + role + ".nodes"
}

// SameNode reports whether every hand-off stays inside one node: both
// pools run on one node, the same one. Pools sharing some of their nodes
// are not (the router pairs any prefill instance with any decode instance,
// so hand-offs also cross nodes: check prices the share whose pair sits on
// the shared node over NVLink and the rest over the NICs, estimate/pd's
// sharedNodeShare).
func (pd *Disaggregated) SameNode() bool {
	if pd == nil || len(pd.Roles) != len(spec.Roles) {
		return false
	}
	var node string
	for _, r := range pd.Roles {
		pl, err := r.Deployment.Place()
		if err != nil {
			return false
		}
		for i, s := range pl.Nodes {
			if !s.Used {
				continue
			}
			name := r.Deployment.Nodes[i].Name
			if node != "" && name != node {
				return false
			}
			node = name
		}
	}
	return node != ""
}

// HostPID reports whether the pool's containers share the host's PID
// namespace: on docker a pool sharing a node with the other pool runs
// with --pid host, so UCX opens the other pool's CUDA IPC handles (with a
// shared PID namespace CUDA IPC worked, vllm-project/vllm#55906; legacy
// handles do not open across PID namespaces, openucx/ucx#11513). The
// generator writes --pid host from it and estimate/pd prices the hand-off
// from it: one fact for both. False on bare metal (no container) and on
// Kubernetes (vlaunch writes no hostPID; shared nodes are refused there).
func (d *Deployment) HostPID(runtime string) bool {
	return runtime == "docker" && d.SharesNode()
}

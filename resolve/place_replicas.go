package resolve

import (
	"errors"
	"fmt"
	"slices"

	"github.com/vlaunch/vlaunch/spec"
)

// placeReplicas places l.Replicas copies of the layout one after another:
// each on the nodes the replicas before it left (placeReplica), spanning
// as many nodes as the first and with the same shape (GPU counts and slots).
func placeReplicas(l Layout, nodeGPUs []int) (Placement, error) {
	return placeReplicasWith(l, nodeGPUs, nextReplica)
}

// replicaPlacer places replica one on nodeGPUs from start, given replica
// 0's placement (zero while placing replica 0).
type replicaPlacer func(one Layout, nodeGPUs []int, start int, first Placement) (Placement, error)

// placeReplicasWith is placeReplicas with the way each next replica is
// placed as a parameter, so that a test can hold the fast placer equal to
// the plain one through the same checks.
func placeReplicasWith(l Layout, nodeGPUs []int, next replicaPlacer) (Placement, error) {
	one := l
	one.Replicas = 1
	out := Placement{Nodes: make([]NodeSlot, len(nodeGPUs))}
	var first Placement
	start := 0
	for r := range l.ReplicaCount() {
		if start >= len(nodeGPUs) {
			return Placement{}, tooFewNodes(l, first.ReplicaNodes, len(nodeGPUs))
		}
		p, err := next(one, nodeGPUs, start, first)
		if err != nil && r == 0 {
			return Placement{}, err
		}
		if err != nil {
			return Placement{}, tooFewNodes(l, first.ReplicaNodes, len(nodeGPUs))
		}
		span := p.ReplicaNodes
		if r == 0 {
			first = p
		} else if !sameShape(first, nodeGPUs[:span], p, nodeGPUs[start:start+span]) {
			return Placement{}, fieldErr("parallelism.replicas",
				fmt.Sprintf("replica %d would run on nodes %d-%d, whose GPU counts differ from replica 0's (nodes 0-%d): replicas must be alike",
					r, start, start+span-1, span-1), "give every group of nodes the same GPU counts, or change the layout")
		}
		for i, s := range p.Nodes[:span] {
			s.Replica, s.Rank = r, i
			out.Nodes[start+i] = s
		}
		out.ReplicaStart = append(out.ReplicaStart, start)
		start += span
	}
	out.Spanning, out.ReplicaNodes = first.Spanning, first.ReplicaNodes
	return out, nil
}

// nextReplica is placeReplica on the nodes from start, tried first on
// just as many nodes as replica 0 spans: a replica alike to replica 0
// fits there, with the slots placing it on all the remaining nodes gives
// (placeDP fills nodes in order; a spanning replica 0 has checked that
// every node has its GPU count), and placing 10,000 one-node replicas on
// every remaining node each would cost the square of the nodes. Anything
// else is placed on all of them, which says why it differs.
func nextReplica(one Layout, nodeGPUs []int, start int, first Placement) (Placement, error) {
	if start > 0 {
		end := min(len(nodeGPUs), start+first.ReplicaNodes)
		if p, err := placeReplica(one, nodeGPUs[start:end]); err == nil && sameShape(first, nodeGPUs[:first.ReplicaNodes], p, nodeGPUs[start:end]) {
			return p, nil
		}
	}
	return placeReplica(one, nodeGPUs[start:])
}

// sameShape: two replicas' placements match slot for slot on nodes of the
// same GPU counts.
func sameShape(a Placement, aGPUs []int, b Placement, bGPUs []int) bool {
	if a.ReplicaNodes != b.ReplicaNodes || !slices.Equal(aGPUs, bGPUs) {
		return false
	}
	return slices.Equal(a.Nodes[:a.ReplicaNodes], b.Nodes[:b.ReplicaNodes])
}

func tooFewNodes(l Layout, perReplica, nodes int) error {
	return fieldErr("parallelism.replicas",
		fmt.Sprintf("%d replicas of TP %d x PP %d x DP %d take %d node(s) each (a replica larger than a node takes whole nodes); the spec has %d nodes",
			l.ReplicaCount(), l.TP, l.PP, l.DP, perReplica, nodes),
		"lower parallelism.replicas, or use data parallelism within a node")
}

// ReplicaNodes is how a spec's independent replicas sit on its nodes, as
// Place puts them: the nodes one replica spans and the index of each
// replica's first node (its API server and DP coordinator). A layout Place
// cannot place, or `parallelism: auto`, counts as one replica on every
// node. For tools that read a spec without resolving it (lint --spec,
// preflight).
func ReplicaNodes(d *spec.Deployment) (per int, heads []int) {
	gpus := make([]int, len(d.Hardware.Nodes))
	for i, n := range d.Hardware.Nodes {
		gpus[i] = n.GPUs
	}
	if p, err := place(layoutFromSpec(d), gpus); err == nil && !d.Parallelism.Auto {
		return p.ReplicaNodes, p.ReplicaStart
	}
	return len(gpus), []int{0}
}

// PlacementProblem is why Place's arithmetic cannot put the spec's layout
// on its nodes (whatever the release), nil when it can or the layout is
// `auto`: validate reports it, so that validate, check and generate agree
// on which layouts run (generate's GEN002 is the same rule).
func PlacementProblem(d *spec.Deployment) *FieldError {
	if d.Parallelism.Auto || len(d.Hardware.Nodes) == 0 {
		return nil
	}
	d = d.EngineView() // a colocated router's CPU-only host holds no engine
	gpus := make([]int, len(d.Hardware.Nodes))
	for i, n := range d.Hardware.Nodes {
		gpus[i] = n.GPUs
	}
	var fe *FieldError
	p, err := place(layoutFromSpec(d), gpus)
	if err != nil && errors.As(err, &fe) {
		return fe
	}
	if err == nil {
		return p.PortsProblem(d.VLLM.Port, d.VLLM.RPCPort, d.Parallelism.Data)
	}
	return nil
}

// PortsProblem refuses an API port (vllm.port), or with DP > 1 a DP RPC
// port (vllm.rpc_port), that replicas sharing a node would take past 65535
// (each uses the port plus its slot); nil when they fit or a port is unset
// (0: the default, far below). validate and generate apply it.
func (p Placement) PortsProblem(port, rpcPort, dp int) *FieldError {
	for _, q := range []struct {
		path     string
		port     int
		relevant bool
	}{{"vllm.port", port, true}, {"vllm.rpc_port", rpcPort, dp > 1}} {
		if top := q.port + p.MaxSlot(); q.relevant && q.port > 0 && top > 65535 {
			return fieldErr(q.path, fmt.Sprintf("replicas sharing a node take %s plus their place on it, up to port %d, past 65535", q.path, top),
				"lower "+q.path)
		}
	}
	return nil
}

// MaxSlot is the highest place a replica has among those sharing its node
// (0 unless SubNode): the generator gives it API port vllm.port + slot.
func (p Placement) MaxSlot() int {
	m := 0
	for _, s := range p.Sites {
		m = max(m, s.Slot)
	}
	return m
}

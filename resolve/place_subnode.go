package resolve

import "fmt"

// placeSubNode places replicas smaller than a node: node after node, in
// order, as many whole replicas as the node's GPUs hold, each a
// single-node engine set on consecutive GPUs of its own (one replica never
// takes part of one node and part of another). A replica is TP × PP × DP
// GPUs, its DP ranks all on its node. Nodes after the last replica stay
// unused; GPUs a node's replicas leave are its IdleGPUs.
func placeSubNode(l Layout, nodeGPUs []int) (Placement, error) {
	per, want := l.GPUs(), l.ReplicaCount()
	p := Placement{SubNode: true, ReplicaNodes: 1, Nodes: make([]NodeSlot, len(nodeGPUs)),
		Sites: make([]Site, 0, want), ReplicaStart: make([]int, 0, want)}
	for i, g := range nodeGPUs {
		if len(p.Sites) == want {
			break
		}
		k := min(max(g, 0)/per, want-len(p.Sites))
		if k == 0 {
			continue
		}
		p.Nodes[i] = NodeSlot{Used: true, Replica: len(p.Sites), Replicas: k, DPLocal: l.DP, IdleGPUs: g - k*per}
		for slot := range k {
			p.Sites = append(p.Sites, Site{Node: i, FirstGPU: slot * per, GPUs: per, Slot: slot})
			p.ReplicaStart = append(p.ReplicaStart, i)
		}
	}
	if !p.Nodes[0].Used {
		return Placement{}, fieldErr("hardware.nodes[0]", "node 0 runs no replica", "")
	}
	if n := len(p.Sites); n < want {
		return Placement{}, fieldErr("parallelism.replicas",
			fmt.Sprintf("%d replicas of TP %d x PP %d x DP %d (%d GPUs each, never split between nodes) do not fit: the nodes hold %d such replica(s)",
				want, l.TP, l.PP, l.DP, per, n), "lower parallelism.replicas, or add nodes")
	}
	return p, nil
}

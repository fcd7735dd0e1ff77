package resolve

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPlaceMemo: a remembered placement is the one placeFresh computes,
// for layouts placed, refused and asked again on other nodes, and nodes
// whose GPU counts hash alike under one layout stay apart.
func TestPlaceMemo(t *testing.T) {
	nodes := [][]int{{8, 8, 8, 8}, {8, 8, 8, 4}, {4, 4}, {8}}
	layouts := []Layout{{TP: 8, PP: 1, DP: 4, EP: true}, {TP: 8, PP: 2, DP: 1}, {TP: 4, PP: 1, DP: 2, Replicas: 2}, {TP: 16, PP: 1, DP: 1}}
	for round := 0; round < 2; round++ { // the second round reads the memo
		for _, g := range nodes {
			for _, l := range layouts {
				got, gerr := place(l, g)
				want, werr := placeFresh(l, g)
				if diff := cmp.Diff(want, got); diff != "" || (gerr == nil) != (werr == nil) {
					t.Errorf("round %d, %v on %v: memo differs (-fresh +memo):\n%s\nerrors %v / %v", round, l, g, diff, werr, gerr)
				}
			}
		}
	}
	// Another GPU list under the same key (as if it collided) is not
	// taken for this one.
	l := Layout{TP: 8, PP: 1, DP: 1}
	placeMemo.mu.Lock()
	clear(placeMemo.m)
	placeMemo.m[placeKey{l, hashInts([]int{8})}] = []placed{{nodeGPUs: []int{9}, p: Placement{ReplicaNodes: 99}}}
	placeMemo.mu.Unlock()
	if got, _ := place(l, []int{8}); got.ReplicaNodes == 99 {
		t.Error("the placement of another GPU list under the same hash was returned")
	}
}

// TestPlaceReplicasOnTheirNodes: placing replicas after the first on just
// as many nodes as it spans gives what placing each on every remaining
// node gives (the rule before), placements and errors, on uniform and
// mixed nodes.
func TestPlaceReplicasOnTheirNodes(t *testing.T) {
	nodeLists := [][]int{{8, 8, 8, 8}, {8, 8, 8, 4}, {8, 4, 8, 4}, {4, 8, 8, 8}, {8, 8, 8, 8, 8, 8}, {8, 8, 4, 4, 8, 8}, {16, 8, 8, 8}}
	var layouts []Layout
	for _, tp := range []int{1, 2, 4, 8, 16} {
		for _, dp := range []int{1, 2, 4} {
			for _, r := range []int{2, 3, 4, 6} {
				layouts = append(layouts, Layout{TP: tp, PP: 1, DP: dp, Replicas: r})
			}
		}
	}
	for _, g := range nodeLists {
		for _, l := range layouts {
			got, gerr := placeReplicas(l, g)
			want, werr := placeReplicasOnEveryNode(l, g)
			if diff := cmp.Diff(want, got); diff != "" || fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Errorf("%v on %v: (-every node +their nodes):\n%s\nerrors %v / %v", l, g, diff, werr, gerr)
			}
		}
	}
}

// placeReplicasOnEveryNode is placeReplicas as it was: each replica
// placed on every node the ones before it left.
func placeReplicasOnEveryNode(l Layout, nodeGPUs []int) (Placement, error) {
	one := l
	one.Replicas = 1
	out := Placement{Nodes: make([]NodeSlot, len(nodeGPUs))}
	var first Placement
	start := 0
	for r := range l.ReplicaCount() {
		if start >= len(nodeGPUs) {
			return Placement{}, tooFewNodes(l, first.ReplicaNodes, len(nodeGPUs))
		}
		p, err := placeReplica(one, nodeGPUs[start:])
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

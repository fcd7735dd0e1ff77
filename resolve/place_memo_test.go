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
	return placeReplicasWith(l, nodeGPUs, func(one Layout, nodeGPUs []int, start int, _ Placement) (Placement, error) {
		return placeReplica(one, nodeGPUs[start:])
	})
}

package generator

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRefusalIsMakePlans: Refusal (the first node of each role only)
// reports exactly MakePlan's diagnostics (every node), on every release ×
// scenario × backend × runtime of the matrix, refusals included; and the
// nodes its plan holds are the first of each role an active node has, each
// exactly as MakePlan plans it (commands included).
func TestRefusalIsMakePlans(t *testing.T) {
	n := 0
	for _, c := range matrixCases(t) {
		if c.resolved == nil {
			continue
		}
		p, want := MakePlan(c.resolved, c.runtime)
		if p != nil {
			sketch, _ := makePlan(c.resolved, c.runtime, leaderNodes)
			checkLeaders(t, c.String(), p, sketch)
		}
		if diff := cmp.Diff(want, Refusal(c.resolved, c.runtime)); diff != "" {
			t.Errorf("%s: Refusal differs from MakePlan (-MakePlan +Refusal):\n%s", c, diff)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no case resolved")
	}
}

// checkLeaders: sketch holds every role of full's active nodes once, each
// the first node of its role and planned alike, and counts the replicas
// and their nodes as full does.
func checkLeaders(t *testing.T, name string, full, sketch *Plan) {
	t.Helper()
	first := map[string]*NodePlan{}
	for _, n := range full.activeNodes() {
		if first[n.Role] == nil {
			first[n.Role] = n
		}
	}
	if len(sketch.Nodes) != len(first) {
		t.Errorf("%s: %d nodes kept for %d roles", name, len(sketch.Nodes), len(first))
	}
	for i := range sketch.Nodes {
		n := &sketch.Nodes[i]
		if diff := cmp.Diff(first[n.Role], n); diff != "" {
			t.Errorf("%s: role %s: the kept node differs from the first of its role (-MakePlan +kept):\n%s", name, n.Role, diff)
		}
	}
	if sketch.Replicas != full.Replicas || sketch.ReplicaNodes != full.ReplicaNodes || sketch.Primary.Index != full.Primary.Index {
		t.Errorf("%s: kept plan has %d replicas of %d nodes (primary %d), MakePlan %d of %d (primary %d)", name,
			sketch.Replicas, sketch.ReplicaNodes, sketch.Primary.Index, full.Replicas, full.ReplicaNodes, full.Primary.Index)
	}
}

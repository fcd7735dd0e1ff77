package generator

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRefusalIsMakePlans: Refusal (the commands of one node per role)
// reports exactly MakePlan's diagnostics (every node's commands), on every
// release × scenario × backend × runtime of the matrix, refusals included;
// and the nodes it builds are one of each role an active node has.
func TestRefusalIsMakePlans(t *testing.T) {
	n := 0
	for _, c := range matrixCases(t) {
		if c.resolved == nil {
			continue
		}
		p, want := MakePlan(c.resolved, c.runtime)
		if p != nil {
			checkRoleLeaders(t, c.String(), p)
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

// checkRoleLeaders: roleLeaders has every role of the active nodes once,
// each the first node of its role.
func checkRoleLeaders(t *testing.T, name string, p *Plan) {
	t.Helper()
	first := map[string]*NodePlan{}
	for _, n := range p.activeNodes() {
		if first[n.Role] == nil {
			first[n.Role] = n
		}
	}
	got := p.roleLeaders()
	if len(got) != len(first) {
		t.Errorf("%s: %d role leaders for %d roles", name, len(got), len(first))
	}
	for _, n := range got {
		if first[n.Role] != n {
			t.Errorf("%s: role %s led by node %d, not the first of its role", name, n.Role, n.Index)
		}
	}
}

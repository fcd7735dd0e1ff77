package estimate

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/slo"
)

// TestBudgetSpentIsNotEvaluated: once check's P/D what-if evaluations are
// spent, an edit not yet evaluated is "not evaluated" (budgetSpent), never
// read as a layout that does not start; one already evaluated is answered
// from the memo.
func TestBudgetSpentIsNotEvaluated(t *testing.T) {
	a := &pdAdvisor{memo: map[string][]slo.Verdict{"seen": nil}, evals: pdWouldPassEvals}
	if !a.budgetSpent(pdEdit{what: "new"}) {
		t.Error("a new edit with the budget spent: want spent")
	}
	if a.budgetSpent(pdEdit{what: "seen"}) {
		t.Error("a memoised edit: want answered, not spent")
	}
	a.evals = pdWouldPassEvals - 1
	if a.budgetSpent(pdEdit{what: "new"}) {
		t.Error("budget left: want not spent")
	}
}

// TestFailingFirst: failing verdicts are advised before uncertain ones,
// each group in the report's order.
func TestFailingFirst(t *testing.T) {
	vs := []slo.Verdict{{Verdict: slo.VerdictUncertain}, {Verdict: slo.VerdictFail}, {Verdict: slo.VerdictPass}, {Verdict: slo.VerdictFail}}
	got := failingFirst(vs)
	want := []int{1, 3, 0, 2}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

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

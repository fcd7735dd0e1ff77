package search

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// countEvaluations replaces evaluate for the test with one that counts
// the evaluations of each layout with check's options (confirmations, not
// ranking runs).
func countEvaluations(t *testing.T, check slo.Options) map[string]int {
	n := map[string]int{}
	var mu sync.Mutex // the search confirms its top few at once
	orig := evaluate
	evaluate = func(in *input.Input, m *memory.Report, opt slo.Options) slo.Result {
		if opt == check {
			mu.Lock()
			n[layoutKey(in.Layout)]++
			mu.Unlock()
		}
		return orig(in, m, opt)
	}
	t.Cleanup(func() { evaluate = orig })
	return n
}

func layoutKey(l input.Layout) string {
	return fmt.Sprintf("TP%d PP%d DP%d EP%v ×%d", l.TP, l.PP, l.DP, l.EP, l.ReplicaCount())
}

func resultJSON(t *testing.T, r slo.Result) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The search evaluates the layout it chooses with check's options exactly
// once (its confirmation, advice included), and hands that evaluation
// back: it is what slo.Evaluate gives the chosen input with check's
// options — the report's performance half — and it is offered only for
// that input and those options.
func TestChooseConfirmedEvaluatesTheChoiceOnce(t *testing.T) {
	base := autoDeepSeek(t)
	n := countEvaluations(t, checkOpt)
	in, s, _, c := ChooseConfirmed(&base, checkOpt)
	if s == nil || c == nil {
		t.Fatalf("search %v, confirmation %v", s, c)
	}
	if got := n[layoutKey(in.Layout)]; got != 1 {
		t.Fatalf("chosen %s evaluated %d times with check's options, want 1 (%v)", s.Chosen.Name(), got, n)
	}
	mem := memory.Estimate(&in)
	got, ok := c.For(&in, &mem, checkOpt)
	if !ok {
		t.Fatal("the confirmation is not offered for the chosen input and check's options")
	}
	want := slo.Evaluate(&in, &mem, checkOpt)
	if resultJSON(t, got) != resultJSON(t, want) {
		t.Errorf("confirmation differs from check's evaluation:\n%s\nwant\n%s", resultJSON(t, got), resultJSON(t, want))
	}
	if want.Performance == nil || len(want.Performance.Alternatives) == 0 {
		t.Errorf("check's evaluation has no advice (alternatives): the test compares nothing of it")
	}
	// Another seed, another layout: not offered.
	if _, ok := c.For(&in, &mem, slo.Options{Seed: checkOpt.Seed + 1}); ok {
		t.Error("offered for another seed")
	}
	other := s.Candidates[1]
	oin := base.WithLayout(other.layout(base.Layout.Nodes, base.Layout.GPUsPerNode))
	omem := memory.Estimate(&oin)
	if _, ok := c.For(&oin, &omem, checkOpt); ok {
		t.Errorf("offered for %s", other.Name())
	}
	// The caller's appends do not reach the confirmation.
	got.Notes = append(got.Notes[:0], memory.Note{})
	if again, _ := c.For(&in, &mem, checkOpt); resultJSON(t, again) != resultJSON(t, want) {
		t.Error("a caller's edit reached the confirmation")
	}
	var none *Confirmation
	if _, ok := none.For(&in, &mem, checkOpt); ok {
		t.Error("a nil confirmation offered a result")
	}
}

package plan

import "testing"

// qa44b F6: Qwen3-Next-80B on 4 × H200 with 200K-token prompts. #1 was
// ranked by its ranking simulation, then simulated again as check does
// (confirm) and printed with that run's verdicts: 0 of 3 met, one fail and
// two point misses, above #2's one fail and one point miss — the list
// contradicted the order it states. The list is now in the order of the
// figures it prints: no listed candidate's score beats one listed above it.
func TestPlanListsInTheOrderOfItsPrintedFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("plans a 200K-prompt spec")
	}
	d, path, src := pdSpec(t, "qa44b/06-qwen3-next-80b-tp4-h200-256k")
	r := Plan(d, Options{Seed: 1, File: path, Source: src})
	if len(r.Top) < 2 {
		t.Fatalf("%d listed: the spec no longer exercises the order", len(r.Top))
	}
	for i, c := range r.Top {
		if c.Rank != i+1 {
			t.Errorf("#%d carries rank %d", i+1, c.Rank)
		}
		s := scoreOf(&c)
		for _, p := range r.Top[:i] {
			if q := scoreOf(&p); s.Better(q) {
				t.Errorf("#%d %s (%+v) ranks below #%d %s (%+v), which it beats by the stated key", c.Rank, c.Settings.String(), s, p.Rank, p.Settings.String(), q)
			}
		}
	}
	if !r.Top[0].Confirmed {
		t.Errorf("#1 %s is not simulated as check does", r.Top[0].Settings.String())
	}
}

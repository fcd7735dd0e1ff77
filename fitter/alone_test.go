package fitter

import (
	"strings"
	"testing"
)

// TestChoosesWhatCanImprove (fix40d): with one constant to fit, the fit
// takes the one that can lower the worst error within its range, not the
// one that moves some prediction most. "a" moves the first value (already
// exact) by up to 80% and nothing else; "b" moves the second (40% low) by
// up to 50%. Chosen by effect, a was fitted and left unchanged with the
// worst error still 50%; chosen by what each can do alone, b is fitted and
// the worst error falls to ~0, and a's refusal says what each can do.
func TestChoosesWhatCanImprove(t *testing.T) {
	params := []Param{{Name: "a", Start: 0.5, Lower: 0.1, Upper: 1}, {Name: "b", Start: 1, Lower: 0.5, Upper: 2}}
	m := func(x []float64) []float64 { return []float64{10 * x[0], 4 * x[1]} }
	ts := []Target{{ID: "one", Measured: 5}, {ID: "two", Measured: 6}}
	out, err := Fit(params, ts, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Fitted[0] || !out.Fitted[1] || out.WorstAfter > 0.01 {
		t.Fatalf("fitted %v, worst %.3f -> %.3f: want b fitted and the worst error ~0", out.Fitted, out.WorstBefore, out.WorstAfter)
	}
	if len(out.Refused) != 1 || !strings.Contains(out.Refused[0].Reason, "b takes the worst error from 50.0% to") ||
		!strings.Contains(out.Refused[0].Reason, "this one cannot lower the worst error (50.0%)") {
		t.Errorf("a's refusal: %+v", out.Refused)
	}
	if len(out.Unchanged) != 0 {
		t.Errorf("b moved: want no unchanged reasons, got %+v", out.Unchanged)
	}
}

// TestUnchangedSaysWhy (fix40d): a fitted constant the fit leaves at its
// start says why: at a bound with nothing better inside its range, no
// value lowering the worst error, or nothing better beside the others.
func TestUnchangedSaysWhy(t *testing.T) {
	params := []Param{{Name: "lo", Start: 0.1, Lower: 0.1, Upper: 1}, {Name: "mid", Start: 0.5, Lower: 0.1, Upper: 1},
		{Name: "joint", Start: 0.5, Lower: 0.1, Upper: 1}, {Name: "moved", Start: 0.5, Lower: 0.1, Upper: 1}}
	sens := []sensitivity{{alone: aloneScan{scanned: true, worstAt: 0.84}}, {alone: aloneScan{scanned: true, worstAt: 0.84}},
		{alone: aloneScan{scanned: true, gain: 0.2, worstAt: 0.84}}, {}}
	got := unchanged(params, []bool{true, true, true, true}, []float64{0.1, 0.5, 0.5, 0.6}, sens)
	want := []string{"starts at its lower bound 0.1 and no value in its range [0.1, 1] lowers the worst error (131.6%)",
		"no value in its range [0.1, 1] lowers the worst error (131.6%): the value furthest off does not depend on it",
		"with the other fitted constants, no value in its range [0.1, 1] fits better"}
	if len(got) != len(want) {
		t.Fatalf("unchanged %+v, want %d", got, len(want))
	}
	for k, w := range want {
		if !strings.Contains(got[k].Reason, w) {
			t.Errorf("%s: %q, want %q", got[k].Name, got[k].Reason, w)
		}
	}
}

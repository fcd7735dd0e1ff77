package slo

import (
	"slices"
	"testing"
)

// TestPrefetchMeetsSameLines: simulating a line's candidates ahead, side
// by side (prefetchMeets), changes nothing check prints — every verdict's
// figure and "what it would take" lines are those of running each
// screening run and confirmation where it is asked for — and the runs
// taken from ahead are real: on qa43's MiniMax-M2.5 (DP 16 over one 25
// Gbit/s NIC) the TTFT p99 load search confirms two loads, and two
// alternatives pass the throughput target's screening.
func TestPrefetchMeetsSameLines(t *testing.T) {
	in := adviceInput(t, "testdata/qa43-minimax-m2.5-dpep-2x8h20-25g.yaml", nil)
	taken := 0
	defer func(f func(*wouldPassCheck, offeredClaim)) { recordOffer = f }(recordOffer)
	recordOffer = func(w *wouldPassCheck, _ offeredClaim) { taken = max(taken, w.taken) }
	ahead := check(&in, Options{Seed: 1})
	if taken == 0 {
		t.Fatal("no run taken from ahead: the spec no longer exercises prefetchMeets")
	}
	defer func() { usePrefetchMeets = true }()
	usePrefetchMeets = false
	inTurn := check(&in, Options{Seed: 1})
	if len(ahead.SLO) != len(inTurn.SLO) {
		t.Fatalf("%d verdicts against %d", len(ahead.SLO), len(inTurn.SLO))
	}
	for i, v := range ahead.SLO {
		w := inTurn.SLO[i]
		if v.Predicted != w.Predicted || v.Verdict != w.Verdict || !slices.Equal(v.WouldPass, w.WouldPass) {
			t.Errorf("%s: ahead %v %s %q\nin turn %v %s %q", v.Name, v.Predicted, v.Verdict, v.WouldPass, w.Predicted, w.Verdict, w.WouldPass)
		}
	}
}

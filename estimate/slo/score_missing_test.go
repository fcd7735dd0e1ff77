package slo

import "testing"

// qa43 F3: DeepSeek-V4-Flash on 16 B200. TP 8 × 2 replicas passes both
// TTFT SLOs but its throughput (22,943 of 30,000 tokens/s) and TPOT (44.5
// of 40 ms) predictions miss, inside their bands; the spec's DP 16 with EP
// has every verdict uncertain and every prediction meeting its target
// (47,758 tokens/s, 24.6 ms, TTFT 965 ms and 2.1 s). Neither fails: the
// one whose predictions all meet ranks first, whatever the passes.
func TestPointMissesRankBeforePasses(t *testing.T) {
	tp8x2 := ScoreOf([]Verdict{
		{Unit: "tokens/s", Target: 30000, Predicted: 22943, Verdict: VerdictUncertain},
		{Unit: "s", Target: 0.040, Predicted: 0.0445, Verdict: VerdictUncertain},
		{Unit: "s", Target: 1, Predicted: 0.335, Verdict: VerdictPass},
		{Unit: "s", Target: 3, Predicted: 0.674, Verdict: VerdictPass},
	}, 1434)
	dp16 := ScoreOf([]Verdict{
		{Unit: "tokens/s", Target: 30000, Predicted: 47758, Verdict: VerdictUncertain},
		{Unit: "s", Target: 0.040, Predicted: 0.0246, Verdict: VerdictUncertain},
		{Unit: "s", Target: 1, Predicted: 0.965, Verdict: VerdictUncertain},
		{Unit: "s", Target: 3, Predicted: 2.1, Verdict: VerdictUncertain},
	}, 2985)
	if tp8x2.Missing != 2 || dp16.Missing != 0 {
		t.Fatalf("missing: TP 8 × 2 %d (want 2), DP 16 %d (want 0)", tp8x2.Missing, dp16.Missing)
	}
	if !dp16.Better(tp8x2) || tp8x2.Better(dp16) {
		t.Errorf("two passes and two predictions short of their targets rank above four uncertain predictions that meet them: %+v over %+v", tp8x2, dp16)
	}
	// A fail still counts first: one fail ranks below any number of misses.
	oneFail := ScoreOf([]Verdict{
		{Unit: "tokens/s", Target: 30000, Predicted: 10000, Verdict: VerdictFail},
		{Unit: "s", Target: 0.040, Predicted: 0.01, Verdict: VerdictPass},
	}, 9999)
	twoMiss := ScoreOf([]Verdict{
		{Unit: "tokens/s", Target: 30000, Predicted: 29000, Verdict: VerdictUncertain},
		{Unit: "s", Target: 0.040, Predicted: 0.041, Verdict: VerdictUncertain},
	}, 1)
	if oneFail.Missing != 1 || !twoMiss.Better(oneFail) {
		t.Errorf("a fail (missing %d) ranks above two uncertain misses: %+v over %+v", oneFail.Missing, oneFail, twoMiss)
	}
	// Among equal misses, passes still count.
	if !tp8x2.Better(ScoreOf([]Verdict{
		{Unit: "tokens/s", Target: 30000, Predicted: 22943, Verdict: VerdictUncertain},
		{Unit: "s", Target: 0.040, Predicted: 0.0445, Verdict: VerdictUncertain},
		{Unit: "s", Target: 1, Predicted: 0.335, Verdict: VerdictUncertain},
		{Unit: "s", Target: 3, Predicted: 0.674, Verdict: VerdictPass},
	}, 1434)) {
		t.Error("at equal misses, more passes no longer rank first")
	}
}

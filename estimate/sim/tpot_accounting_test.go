package sim

import (
	"math"
	"testing"
)

// The TPOT distribution leaves out requests of one output token, as the
// benchmark clients do: one session of requests of 1–4 output tokens on a
// constant 1 ms step decodes every request at 1 ms a token, so the mean
// TPOT is 1 ms, not pulled toward 0 by the one-token requests.
func TestTPOTLeavesOutOneTokenRequests(t *testing.T) {
	res := Run(Config{Step: constStep(0.001), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20, InputTokens: 100, OutputTokens: 2,
		Sessions: 1, Pool: 400, Seed: 5, Spread: Spread{Lo: 0.99, Hi: 1.01, OutLo: 0, OutHi: 2}})
	if res.Requests < 300 {
		t.Fatalf("%d requests measured, want most of 400", res.Requests)
	}
	for name, v := range map[string]float64{"mean": res.TPOT.Mean, "median": res.TPOT.P50, "P99": res.TPOT.P99} {
		if math.Abs(v/0.001-1) > 0.01 {
			t.Errorf("TPOT %s %.6f s, want 0.001 (the step)", name, v)
		}
	}
}

// tpotPercentiles drops the one-token marks but keeps a TPOT of 0 (a
// many-token request whose tokens all arrived at once).
func TestTPOTPercentilesDropsMarks(t *testing.T) {
	p := tpotPercentiles([]float64{noTPOT, noTPOT, 0, 0.01, 0.05})
	if math.Abs(p.Mean-0.02) > 1e-12 || p.P50 != 0.01 {
		t.Errorf("got mean %g, median %g; want 0.02 and 0.01 (a 0 TPOT of a many-token request counts)", p.Mean, p.P50)
	}
	if p := tpotPercentiles([]float64{noTPOT}); p != (Percentiles{}) {
		t.Errorf("no request with a TPOT: got %+v, want zero", p)
	}
}

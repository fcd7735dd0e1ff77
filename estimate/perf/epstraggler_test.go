package perf

import (
	"math"
	"testing"
)

// TestEPBusiestHit: the expected maximum of ranks Binomial(n, p) draws,
// derived by hand. One expert a rank hit with p = 1/2 on two ranks: max is
// 0 only when both miss, E = 1 − 1/4 = 0.75. Two experts a rank, p = 1/2,
// two ranks: F(0) = 1/4, F(1) = 3/4, E = (1 − 1/16) + (1 − 9/16) = 1.375.
// One rank, or p = 0, is the mean n·p; p = 1 reads every local expert.
// DeepSeek-V4-Flash on 8 ranks (32 experts each, top-6 of 256) at one
// token: p = 6/256, q = 250/256, F(0) = q^32 = 0.46817, F(1) = F(0) +
// 32·p·q^31 = 0.82772, F(2) = F(1) + 496·p²·q^30 = 0.96147, F(3) = F(2) +
// 4,960·p³·q^29 = 0.99357, F(4) = 0.99916, F(5) = 0.99991:
// E = Σ 1 − F(j−1)^8 = 0.99769 + 0.77967 + 0.26970 + 0.05026 + 0.00670 +
// 0.00071 + 0.00007 … = 2.1048, against a
// mean of 32·6/256 = 0.75.
func TestEPBusiestHit(t *testing.T) {
	for _, tt := range []struct {
		n, p  float64
		ranks int
		want  float64
	}{
		{1, 0.5, 2, 0.75},
		{2, 0.5, 2, 1.375},
		{32, 6.0 / 256, 1, 0.75},
		{32, 0, 8, 0},
		{32, 1, 8, 32},
		{32, 6.0 / 256, 8, 2.1048},
	} {
		if got := epBusiestHit(tt.n, tt.p, tt.ranks); math.Abs(got-tt.want) > 1e-4 {
			t.Errorf("n %v p %v ranks %d: E[max] %.5f, hand %.5f", tt.n, tt.p, tt.ranks, got, tt.want)
		}
	}
	// More ranks, a higher maximum; never above n, never below the mean.
	prev := 0.0
	for _, r := range []int{1, 2, 4, 8, 16, 64} {
		e := epBusiestHit(32, 0.1, r)
		if e < prev || e > 32 || e < 3.2-1e-12 {
			t.Errorf("ranks %d: E[max] %.4f (previous %.4f)", r, e, prev)
		}
		prev = e
	}
}

// TestEPStragglerExpertBytes: with the switch on, DeepSeek-V4-Flash at TP8
// + EP on one token reads the busiest rank's 2.1048 experts a layer in
// place of the mean's 0.75 (TestEPBusiestHit); without EP (experts
// TP-sharded, every rank reads a slice of each) nothing changes, and at a
// prefill-sized step every rank reads all 32 of its experts either way.
func TestEPStragglerExpertBytes(t *testing.T) {
	defer func(v bool) { UseEPStraggler = v }(UseEPStraggler)
	m := perfModel(t, "deepseek-v4-flash")
	hw := NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 2, 0, 0, 0)
	bytes := func(ep, on bool, tokens float64) float64 {
		UseEPStraggler = on
		sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, EP: ep, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff})
		_, b := sm.expertWork(tokens)
		act := tokens * sm.topK * sm.actPairShare * sm.actBytesPerPair * sm.moeLayers
		return b - act // the weights alone
	}
	off, on := bytes(true, false, 1), bytes(true, true, 1)
	if r := on / off; math.Abs(r-2.1048/0.75) > 1e-3 {
		t.Errorf("EP, one token: busiest / mean expert weights %.4f, hand %.4f", r, 2.1048/0.75)
	}
	if a, b := bytes(false, false, 1), bytes(false, true, 1); a != b {
		t.Errorf("no EP: the switch moved the expert weights %.6g -> %.6g", a, b)
	}
	if a, b := bytes(true, false, 8192), bytes(true, true, 8192); math.Abs(b/a-1) > 1e-9 {
		t.Errorf("EP, 8,192 tokens: every expert hit on every rank, weights %.6g -> %.6g", a, b)
	}
}

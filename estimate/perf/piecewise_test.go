package perf

import (
	"math"
	"testing"
)

// TestPrefillGraphTokens: an SGLang prefill step (PrefillEager) pays the
// eager launch cost, SGLangEagerPerLayerS per dense-GQA-equivalent layer
// (StepModel.eagerLayers), unless its tokens on the busiest rank are at
// most PrefillGraphTokens (SGLang's piecewise CUDA graph ceiling): then it
// replays graphs and launches nothing. At the ceiling exactly the step is
// still captured (SGLang picks the smallest captured size ≥ the step's
// tokens); one token above, eager again. Decode steps are unaffected.
func TestPrefillGraphTokens(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	s := StepSetup{Model: m, HW: Hardware{BF16FLOPS: 989e12, FP8FLOPS: 1979e12, HBMBytesPerS: 3.35e12, GPUsPerNode: 8,
		IntraBytesPerS: 450e9}, TP: 8, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, PrefillEager: true, SGLang: true,
		Eff: DefaultEfficiency}
	eager := NewStepModel(s)
	s.PrefillGraphTokens = 2048
	pcg := NewStepModel(s)
	prefill := func(n float64) []RankRun {
		return []RankRun{{Loads: []RankLoad{{PrefillTokens: n, PrefillPairs: n * (n + 1) / 2, PrefillSeqs: 1}}, N: 1}}
	}
	want := DefaultEfficiency.SGLangEagerPerLayerS * eager.eagerLayers
	if want <= 0 {
		t.Fatalf("eager launch cost %v", want)
	}
	for _, c := range []struct {
		name string
		sm   *StepModel
		runs []RankRun
		want float64
	}{
		{"no ceiling, 1,024 tokens", eager, prefill(1024), want},
		{"ceiling 2,048, 1,024 tokens", pcg, prefill(1024), 0},
		{"ceiling 2,048, 2,048 tokens", pcg, prefill(2048), 0},
		{"ceiling 2,048, 2,049 tokens", pcg, prefill(2049), want},
		{"ceiling 2,048, decode", pcg, []RankRun{{Loads: []RankLoad{{DecodeSeqs: 8, DecodeCtx: 8 * 1024}}, N: 1}}, 0},
	} {
		if got := c.sm.StepRuns(c.runs).LaunchS; math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: launch %.6f s, want %.6f", c.name, got, c.want)
		}
	}
	// The captured step is faster than the eager one by the launches it no
	// longer waits for (they overlapped the GPU's work, so at most that).
	e, p := eager.StepRuns(prefill(1024)).TotalS, pcg.StepRuns(prefill(1024)).TotalS
	if !(p < e) || e-p > want+1e-12 {
		t.Errorf("1,024-token prefill: eager %.4f s, graphs %.4f s; want graphs faster by at most %.4f s", e, p, want)
	}
}

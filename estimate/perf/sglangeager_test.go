package perf

import (
	"math"
	"testing"
)

// TestCitedSGLangEager holds the derivation of CitedSGLangEagerPerLayerS
// (sglangeager.go): SGLang PR #12160's eager DeepSeek-V3 prefill of one new
// token, 82.64 ms of forward, over DeepSeek-V3's dense-GQA-equivalent
// layers with FP8 weights in the eager census (eagerLayers). It also checks
// that the figure was launch-bound (the graph-replayed forward, 23.10 ms,
// is far below it), that DefaultEfficiency carries the cited value under
// UseCitedSGLangEager, and that the step model charges a one-token SGLang
// prefill of DeepSeek-V3 the whole 82.64 ms as launches, the GPU's work
// hidden under them.
func TestCitedSGLangEager(t *testing.T) {
	const eagerForwardS = 82.6406478881836e-3 // 'forward cost' eager, PR #12160
	const graphForwardS = 23.097753524780273e-3
	m := perfModel(t, "deepseek-v3")
	layers := eagerLayers(m, "fp8")
	// 58 MoE layers of 2 + 12 + 11 + 3 operations and 5 + 2 + 2 FP8
	// activation quantizations (37), 3 dense ones of 2 + 12 + 4 and 5 + 2
	// (25), over the 11 of a dense GQA layer.
	if want := (58*37.0 + 3*25.0) / eagerOpsRef; math.Abs(layers-want) > 1e-9 {
		t.Fatalf("DeepSeek-V3 FP8 eager layers %.4f, want %.4f", layers, want)
	}
	per := eagerForwardS / layers
	if math.Abs(per/CitedSGLangEagerPerLayerS-1) > 1e-3 {
		t.Errorf("cited %.1f µs per equivalent layer, derivation gives %.2f µs", 1e6*CitedSGLangEagerPerLayerS, 1e6*per)
	}
	if !(graphForwardS < eagerForwardS/3) {
		t.Errorf("the eager forward (%.1f ms) must be launch-bound against the graph's (%.1f ms)", 1e3*eagerForwardS, 1e3*graphForwardS)
	}
	want := fittedSGLangEagerPerLayerS
	if UseCitedSGLangEager {
		want = CitedSGLangEagerPerLayerS
	}
	if DefaultEfficiency.SGLangEagerPerLayerS != want {
		t.Errorf("DefaultEfficiency.SGLangEagerPerLayerS %.1f µs, want %.1f", 1e6*DefaultEfficiency.SGLangEagerPerLayerS, 1e6*want)
	}

	// The step: TP8 on H200 (the PR's GPU is not stated), one new token.
	e := DefaultEfficiency
	e.SGLangEagerPerLayerS = CitedSGLangEagerPerLayerS
	s := StepSetup{Model: m, HW: Hardware{BF16FLOPS: 989e12, FP8FLOPS: 1979e12, HBMBytesPerS: 4.8e12, GPUsPerNode: 8,
		IntraBytesPerS: 450e9}, TP: 8, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, PrefillEager: true, SGLang: true,
		Eff: e}
	st := NewStepModel(s).StepRuns([]RankRun{{Loads: []RankLoad{{PrefillTokens: 1, PrefillPairs: 1, PrefillSeqs: 1}}, N: 1}})
	if math.Abs(st.LaunchS/eagerForwardS-1) > 1e-3 {
		t.Errorf("one-token SGLang prefill of DeepSeek-V3: launch %.2f ms, want the cited %.2f ms", 1e3*st.LaunchS, 1e3*eagerForwardS)
	}
	if !(st.TotalS >= st.LaunchS) || st.TotalS > st.LaunchS+st.HostS+1e-9 {
		t.Errorf("step %.2f ms: want the launches (%.2f ms) plus the serial host (%.2f ms), the GPU hidden", 1e3*st.TotalS, 1e3*st.LaunchS, 1e3*st.HostS)
	}
}

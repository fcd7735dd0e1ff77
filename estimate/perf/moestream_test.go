package perf

import (
	"math"
	"testing"
)

// TestMoEStreamRate re-derives the B300 NVFP4 rate from the four table
// latencies moestream.go quotes (aiconfigurator b300_sxm/moe/sglang/
// 0.5.14, sglang_flashinfer_trtllm_moe, DeepSeek-R1's shape, balanced):
// one expert is 3 × 7,168 × 2,048 weights at 4 bits plus one FP8 scale per
// 16 (0.5625 B) = 24,772,608 B; EP4 hits 32 more local experts from 16 to
// 32 tokens (0.1400 → 0.2499 ms), EP8 16 more (0.08375 → 0.13955 ms).
func TestMoEStreamRate(t *testing.T) {
	const expert = 3 * 7168 * 2048 * 0.5625
	if expert != 24772608 {
		t.Fatalf("expert bytes %v", expert)
	}
	ep4 := 32 * expert / ((0.2499 - 0.1400) * 1e-3)
	ep8 := 16 * expert / ((0.13955 - 0.08375) * 1e-3)
	got := moeStreamBytesPerS["b300_sxm"]["nvfp4"].BytesPerS
	if mean := (ep4 + ep8) / 2; math.Abs(got/mean-1) > 0.005 {
		t.Errorf("B300 NVFP4 rate %.3g B/s, the table's slopes %.3g (EP4) and %.3g (EP8), mean %.3g", got, ep4, ep8, mean)
	}
	if hbm := perfGPU(t, "b300").HBMBandwidthGBytesPerS * 1e9; got > hbm {
		t.Errorf("measured rate %.3g above the B300's HBM peak %.3g", got, hbm)
	}
}

// The memory side of a decode step's experts: DeepSeek-R1 NVFP4 on
// 4 × B300 (EP4) under SGLang streams its experts at the measured rate —
// bytes / 7.16e12 — with UseMeasuredMoEStream, and at HBM × ExpertHBM of
// the peak without it, or for a vLLM deployment (the table timed SGLang's
// runner), or for FP8 experts (no rate derived).
func TestExpertStreamRateApplies(t *testing.T) {
	g := perfGPU(t, "b300")
	setup := func(dtype string, sglang bool) StepSetup {
		return StepSetup{Model: perfModel(t, "deepseek-r1"), HW: NewHardware(g, 4, 0, 2, 0, 0, 0), TP: 4, PP: 1, DP: 1, EP: true,
			WeightDType: dtype, KVDType: "fp8", CUDAGraphs: true, SGLang: sglang, Eff: ForGPU(DefaultEfficiency, g)}
	}
	const tokens = 32
	mem := func(s StepSetup) (memory, bytes float64) {
		sm := NewStepModel(s)
		var st StepTime
		sm.expertTime(tokens, &st)
		_, bytes = sm.expertWork(tokens)
		return st.MemoryS, bytes
	}
	s := setup("nvfp4", true)
	if s.Eff.Kernels.System != "b300_sxm" {
		t.Fatalf("B300 kernels from %q", s.Eff.Kernels.System)
	}
	fitted := s.HW.HBMBytesPerS * s.Eff.HBM * scale(s.Eff.ExpertHBM)
	m, b := mem(s)
	if !perfNear(m, b/7.16e12, 1e-12) {
		t.Errorf("SGLang NVFP4 on B300: experts' memory %.3f ms, want %.3g B / 7.16e12 = %.3f ms", m*1e3, b, b/7.16e12*1e3)
	}
	for name, o := range map[string]StepSetup{"vLLM": setup("nvfp4", false), "FP8": setup("fp8", true)} {
		if m, b := mem(o); !perfNear(m, b/(o.HW.HBMBytesPerS*o.Eff.HBM*scale(o.Eff.ExpertHBM)), 1e-12) {
			t.Errorf("%s: experts' memory %.3f ms, want the fitted rate's", name, m*1e3)
		}
	}
	defer func(u bool) { UseMeasuredMoEStream = u }(UseMeasuredMoEStream)
	UseMeasuredMoEStream = false
	if m, b := mem(s); !perfNear(m, b/fitted, 1e-12) {
		t.Errorf("switch off: experts' memory %.3f ms, want %.3f at the fitted %.3g B/s", m*1e3, b/fitted*1e3, fitted)
	}
}

package perf

import (
	"math"
	"testing"
)

// interceptFor is the median of the near-slice points' intercepts
// lat_lo − hits_lo × bytes / rate, and 0 with fewer than three points in
// the window.
func TestMoEStreamIntercept(t *testing.T) {
	e := moeStreamEntry{}
	add := func(bytes, rate, latMS float64, hits int) {
		e.Points = append(e.Points, moeStreamPoint{HitsLo: hits, LatLoMS: latMS, ExpertBytes: bytes, BytesPerS: rate})
	}
	// 64 hits of 4 MB at 4e12 B/s stream in 64 µs: intercepts 20, 30, 40 µs.
	add(4e6, 4e12, 0.084, 64)
	add(4e6, 4e12, 0.094, 64)
	add(6e6, 6e12, 0.104, 64)
	if got := e.interceptFor(4e6); math.Abs(got-30e-6) > 1e-9 {
		t.Errorf("intercept %.3g s, want 30 µs", got)
	}
	add(64e6, 4e12, 10, 1) // far outside the window: not counted
	if got := e.interceptFor(4e6); math.Abs(got-30e-6) > 1e-9 {
		t.Errorf("intercept with a far point %.3g s, want 30 µs", got)
	}
	if got := e.interceptFor(64e6); got != 0 {
		t.Errorf("one point in the window: %.3g, want 0", got)
	}
}

// Qwen3-235B-A22B BF16 TP8 on 8 × B200 under SGLang: each MoE layer's
// fused-MoE call costs the table's intercept near its 4.7 MB slice (the
// b200_sxm SGLang Triton BF16 points hold 17–37 µs there) less nine kernel
// gaps, on top of the expert roofline; nothing for vLLM, FP8 experts, or
// with the switch off.
func TestSGLangTritonFixedExcess(t *testing.T) {
	g := perfGPU(t, "b200")
	setup := func(dtype string, sglang bool) StepSetup {
		return StepSetup{Model: perfModel(t, "qwen3-235b-a22b"), HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
			WeightDType: dtype, KVDType: "bf16", CUDAGraphs: true, SGLang: sglang, Eff: ForGPU(DefaultEfficiency, g)}
	}
	s := setup("bf16", true)
	sm := NewStepModel(s)
	if slice := sm.expertSlice(); math.Abs(slice/4718592-1) > 0.01 {
		t.Fatalf("Qwen3-235B TP8 expert slice %.4g B, want 3 × 4096 × 192 × 2", slice)
	}
	x := sm.sglangTritonFixedExcess()
	e := moeStreamFor("b200_sxm", "sglang", "bfloat16", "sglang_fused_moe_triton")
	icpt := e.interceptFor(sm.expertSlice())
	if icpt < 17e-6 || icpt > 37e-6 || math.Abs(x-(icpt-9*s.Eff.KernelGapS)) > 1e-12 || x <= 0 {
		t.Errorf("excess %.3g s from intercept %.3g s and gap %.3g s", x, icpt, s.Eff.KernelGapS)
	}
	var on, off StepTime
	sm.expertTime(1, &on)
	func() {
		defer func(u bool) { UseSGLangTritonMoEFixed = u }(UseSGLangTritonMoEFixed)
		UseSGLangTritonMoEFixed = false
		NewStepModel(s).expertTime(1, &off)
	}()
	if want := off.ExpertS + sm.moeLayers*x; !perfNear(on.ExpertS, want, 1e-9) || sm.moeLayers != 94 {
		t.Errorf("expert term %.4g s, want %.4g (the roofline + %v layers × %.3g)", on.ExpertS, want, sm.moeLayers, x)
	}
	for name, o := range map[string]StepSetup{"vLLM": setup("bf16", false), "FP8": setup("fp8", true)} {
		if x := NewStepModel(o).sglangTritonFixedExcess(); x != 0 {
			t.Errorf("%s: excess %.3g, want 0", name, x)
		}
	}
}

// With UseSGLangTritonMoEFixedFP8Hopper, block-FP8 experts under SGLang on
// the H200 take the fp8_block Triton entry's excess; never on the B200
// (SGLang's DeepSeek FP8 runner there is FlashInfer's TRT-LLM MoE).
func TestSGLangTritonFixedExcessFP8Hopper(t *testing.T) {
	defer func(u bool) { UseSGLangTritonMoEFixedFP8Hopper = u }(UseSGLangTritonMoEFixedFP8Hopper)
	UseSGLangTritonMoEFixedFP8Hopper = true
	for _, c := range []struct {
		gpu  string
		want bool
	}{{"h200", true}, {"b200", false}} {
		g := perfGPU(t, c.gpu)
		s := StepSetup{Model: perfModel(t, "deepseek-r1"), HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
			WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, SGLang: true, Eff: ForGPU(DefaultEfficiency, g)}
		if x := NewStepModel(s).sglangTritonFixedExcess(); (x > 0) != c.want || x > 40e-6 {
			t.Errorf("%s: FP8 excess %.3g s, want positive %v (and below 40 µs)", c.gpu, x, c.want)
		}
	}
}

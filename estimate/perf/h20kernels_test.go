package perf

import (
	"math"
	"sort"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// The H20's cited figures are the benchmarks' own numbers over the 148 TF
// BF16 dense peak (h20Figures says where each comes from), given to both
// memory variants behind UseH20KernelFigures and to no other GPU; what no
// benchmark covers keeps the global constants, and nothing pretends to
// have aiconfigurator's tables.
func TestH20CitedFigures(t *testing.T) {
	const peak = 148.0
	// torch-performance-test-data #77: BF16 4096³ 133.41 TFLOPS.
	// flash-attention #1310: FA3 causal hdim 128 at 2,048 tokens 107.8.
	// FlashMLA #30: s_q = 3…8 at 8,192 context, 64 heads: 129, 126, 125,
	// 130, 128, 120 TFLOPS, median (126 + 128) / 2 = 127.
	if got, want := h20Figures.GEMMBF16, math.Round(133.41/peak*100)/100; got != want {
		t.Errorf("GEMMBF16 %.2f, want %.2f", got, want)
	}
	for i, v := range h20Figures.PrefillAttn {
		if want := math.Round(107.8/peak*100) / 100; v != want {
			t.Errorf("PrefillAttn[%d] %.2f, want %.2f", i, v, want)
		}
	}
	if got, want := h20Figures.DecodeAttn, math.Round((126.0+128)/2/peak*100)/100; got != want {
		t.Errorf("DecodeAttn %.2f, want %.2f", got, want)
	}

	saved, savedFP8 := UseH20KernelFigures, UseH20FP8Figures
	defer func() { UseH20KernelFigures, UseH20FP8Figures = saved, savedFP8 }()
	UseH20FP8Figures = false // the FP8 figures: TestH20FP8Figures

	UseH20KernelFigures = false
	for _, id := range []string{"h20-96g", "h20-141g"} {
		if got := ForGPU(DefaultEfficiency, perfGPU(t, id)); got != DefaultEfficiency {
			t.Errorf("%s with the switch off: the fitted constants", id)
		}
	}

	UseH20KernelFigures = true
	for _, id := range []string{"h20-96g", "h20-141g"} {
		g := perfGPU(t, id)
		e := ForGPU(DefaultEfficiency, g)
		if e.GEMM != 0.90 || e.Attention != 0.86 || e.Kernels.Source() == "" {
			t.Errorf("%s: GEMM %.3f attention %.3f source %q; want the cited 0.90, 0.86", id, e.GEMM, e.Attention, e.Kernels.Source())
		}
		if got := e.prefillAttnEff(16384); got != 0.73 {
			t.Errorf("%s: prefill attention at 16 Ki %.3f, want the cited 0.73 unscaled", id, got)
		}
		// Not cited: the global constants.
		if e.GEMMFP8 != DefaultEfficiency.GEMMFP8 || e.HBM != DefaultEfficiency.HBM || e.KernelGapS != DefaultEfficiency.KernelGapS ||
			e.ExpertGEMM != DefaultEfficiency.ExpertGEMM || e.StepOverheadS != DefaultEfficiency.StepOverheadS {
			t.Errorf("%s: FP8 GEMM, HBM, kernel gap, experts and host must stay the fitted ones", id)
		}
		// No tables: no system, NCCL, MoE curves, decode floors, all-reduce.
		k := e.Kernels
		if k.System != "" || k.NCCL != nil || k.MoE != nil || k.AttnDecodeS != 0 || k.AllReduceS != 0 || k.GEMMFP8 != 0 {
			t.Errorf("%s pretends to have aiconfigurator tables: %+v", id, k)
		}
		if _, ok := MeasuredKernels(g); ok {
			t.Errorf("%s: MeasuredKernels must still say no tables cover it", id)
		}
		if _, ok := GEMMTime(g, GEMMTableBF16, 2048, 4096, 4096); ok {
			t.Errorf("%s: no per-shape GEMM table", id)
		}
		rel, _, err := vllm.ResolveString("0.15.1")
		if err != nil {
			t.Fatal(err)
		}
		r := ForRelease(DefaultEfficiency, g, rel, true, nil)
		if r.Kernels.Windowed != nil || r.Kernels.MoE != nil || r.GEMM != 0.90 {
			t.Errorf("%s through ForRelease: windowed %v MoE %v GEMM %.2f", id, r.Kernels.Windowed, r.Kernels.MoE, r.GEMM)
		}
	}
	for _, id := range []string{"h800", "a800"} { // AMD: amdkernels_test.go
		if _, shared := sharedDieKernels(perfGPU(t, id)); shared {
			continue // the H100's tables: TestH800SharesH100Tables
		}
		if got := ForGPU(DefaultEfficiency, perfGPU(t, id)); got != DefaultEfficiency {
			t.Errorf("%s has no cited figures: the fitted constants", id)
		}
	}
}

// A 16 Ki-token prefill of Qwen3-8B on one H20 is compute-bound: the
// cited figures shorten its dense term by the GEMM rates' ratio (0.6154 /
// 0.90) and its attention term by the attention rates' (0.776 / 0.73,
// slower), nothing else.
func TestH20PrefillMovesByTheRates(t *testing.T) {
	saved := UseH20KernelFigures
	defer func() { UseH20KernelFigures = saved }()
	// BF16 weights: the FP8 figures (UseH20FP8Figures) do not apply.
	off, on := h20Prefill(t, "qwen3-8b", 1, "bf16", &UseH20KernelFigures)
	if got, want := on.DenseS/off.DenseS, DefaultEfficiency.GEMM/0.90; !perfNear(got, want, 0.02) {
		t.Errorf("dense term on/off %.3f, want %.3f (GEMM 0.6154 → 0.90): off %.0f ms, on %.0f ms", got, want, off.DenseS*1e3, on.DenseS*1e3)
	}
	if got, want := on.AttentionS/off.AttentionS, DefaultEfficiency.Attention/0.73; !perfNear(got, want, 0.02) {
		t.Errorf("attention term on/off %.3f, want %.3f: off %.0f ms, on %.0f ms", got, want, off.AttentionS*1e3, on.AttentionS*1e3)
	}
	// By hand: 2 × 16,384 × ≈7.6e9 non-embedding parameters ≈ 2.5e14 FLOPs
	// at 0.90 × 148 TF ≈ 1.9 s.
	if on.DenseS < 1.5 || on.DenseS > 2.2 {
		t.Errorf("dense term %.2f s, by hand ≈1.9 s", on.DenseS)
	}
}

// The H20's FP8 figures are the cited benchmarks' own numbers (h20FP8 says
// where each comes from) derived here by hand: FLOPs over time over the
// 296 TF FP8 dense peak, bytes over time over the datasheet bandwidth.
func TestH20FP8Figures(t *testing.T) {
	const fp8Peak = 296e12
	median := func(v []float64) float64 {
		s := append([]float64(nil), v...)
		sort.Float64s(s)
		n := len(s)
		if n%2 == 1 {
			return s[n/2]
		}
		return (s[n/2-1] + s[n/2]) / 2
	}
	round2 := func(x float64) float64 { return math.Round(x*100) / 100 }
	rate := func(m, n, k, us float64) float64 { return 2 * m * n * k / (us * 1e-6) / fp8Peak }

	// vLLM #49932, DeepGEMM block-FP8 on an H20 (M, N, K, µs).
	gemm := []float64{
		rate(1024, 24576, 7168, 1316.74), rate(4096, 24576, 7168, 5241.13),
		rate(1024, 7168, 16384, 901.21), rate(4096, 7168, 16384, 3586.19),
	}
	// SGLang #9333, CUTLASS grouped FP8 GEMM with the H20 configuration
	// (tokens over all experts, n, k, µs).
	grouped := []float64{
		rate(256*128, 512, 7168, 968.752), rate(256*256, 512, 7168, 1866.966),
		rate(256*256, 256, 7168, 965.347), rate(256*512, 256, 7168, 1864.218),
		rate(32*256, 4096, 7168, 1867.965), rate(16*512, 4096, 7168, 1860.077),
		rate(128*1024, 768, 4096, 3158.109), rate(128*1024, 4096, 384, 1631.626),
	}
	// Memory-bound GEMMs: FP8 weight bytes over µs, in TB/s.
	stream := []float64{
		24576 * 7168 / 92.87e-6 / 1e12, 24576 * 7168 / 91.64e-6 / 1e12,
		7168 * 16384 / 68.86e-6 / 1e12, 7168 * 16384 / 67.43e-6 / 1e12,
	}
	h20e := 25600 * 6144 / 78.25e-6 / 1e12 // SGLang #39306, H20-3e
	for id, want := range map[string]h20FP8Figures{
		"h20-96g":  {GEMMFP8: round2(median(gemm)), ExpertGEMM: round2(median(grouped)), HBM: round2(median(stream) / 4.0)},
		"h20-141g": {GEMMFP8: round2(median(gemm)), ExpertGEMM: round2(median(grouped)), HBM: round2(h20e / 4.8)},
	} {
		if got := h20FP8[id]; got != want {
			t.Errorf("%s: cited %+v, by hand %+v", id, got, want)
		}
	}
	if g, e := median(gemm), median(grouped); g < 0.90 || g > 0.93 || e < 0.86 || e > 0.88 {
		t.Errorf("medians %.3f, %.3f: the tables read 0.916 and 0.870", g, e)
	}
	if b := median(stream); b < 1.80 || b > 1.83 {
		t.Errorf("streaming median %.3f TB/s, the table reads 1.82", b)
	}

	savedK, savedF := UseH20KernelFigures, UseH20FP8Figures
	defer func() { UseH20KernelFigures, UseH20FP8Figures = savedK, savedF }()
	for _, id := range []string{"h20-96g", "h20-141g"} {
		g := perfGPU(t, id)
		UseH20KernelFigures, UseH20FP8Figures = true, false
		off := ForGPU(DefaultEfficiency, g)
		if off.GEMMFP8 != DefaultEfficiency.GEMMFP8 || off.ExpertGEMM != DefaultEfficiency.ExpertGEMM || off.HBM != DefaultEfficiency.HBM {
			t.Errorf("%s, FP8 switch off: GEMMFP8 %.3f ExpertGEMM %.3f HBM %.3f, want the fitted ones", id, off.GEMMFP8, off.ExpertGEMM, off.HBM)
		}
		UseH20FP8Figures = true
		on := ForGPU(DefaultEfficiency, g)
		f := h20FP8[id]
		if on.GEMMFP8 != f.GEMMFP8 || on.Kernels.citedExpertFP8 != f.ExpertGEMM || on.ExpertGEMM != DefaultEfficiency.ExpertGEMM {
			t.Errorf("%s, FP8 switch on: GEMMFP8 %.3f, FP8 experts %.3f, ExpertGEMM %.3f; want the cited %.2f, %.2f unscaled and the fitted constant for other dtypes",
				id, on.GEMMFP8, on.Kernels.citedExpertFP8, on.ExpertGEMM, f.GEMMFP8, f.ExpertGEMM)
		}
		// FP8 experts take the cited rate; BF16 ones the fitted constant.
		for dtype, want := range map[string]float64{"fp8": f.ExpertGEMM, "bf16": DefaultEfficiency.ExpertGEMM, "int4": DefaultEfficiency.ExpertGEMM} {
			s := StepSetup{WeightDType: dtype, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), Eff: on}
			if got := s.expertGEMMEff(); got != want {
				t.Errorf("%s %s experts: %.3f, want %.3f", id, dtype, got, want)
			}
		}
		if h20StreamingCited != (on.HBM == f.HBM) || !h20StreamingCited && on.HBM != DefaultEfficiency.HBM {
			t.Errorf("%s: HBM %.3f with h20StreamingCited %v", id, on.HBM, h20StreamingCited)
		}
		// Everything else as with the BF16 figures alone; INT8 weights do
		// not take the FP8 figure (no KernelFigures.GEMMFP8).
		if on.GEMM != off.GEMM || on.Attention != off.Attention || on.KernelGapS != off.KernelGapS || on.Kernels.GEMMFP8 != 0 {
			t.Errorf("%s: the FP8 switch moved another figure: %+v", id, on)
		}
		if s := (&StepSetup{WeightDType: "int8", HW: NewHardware(g, 8, 0, 2, 0, 0, 0), Eff: on}); s.int8AsFP8() {
			t.Errorf("%s: INT8 weights must keep the BF16-path efficiency", id)
		}
		// Riding on the cited-kernels switch: off with it.
		UseH20KernelFigures = false
		if got := ForGPU(DefaultEfficiency, g); got != DefaultEfficiency {
			t.Errorf("%s with UseH20KernelFigures off: the fitted constants", id)
		}
	}
	for _, id := range []string{"h100-sxm", "h800", "mi300x"} {
		UseH20KernelFigures = true
		UseH20FP8Figures = false
		off := ForGPU(DefaultEfficiency, perfGPU(t, id))
		UseH20FP8Figures = true
		if on := ForGPU(DefaultEfficiency, perfGPU(t, id)); on.GEMMFP8 != off.GEMMFP8 || on.ExpertGEMM != off.ExpertGEMM || on.HBM != off.HBM || on.Kernels.citedExpertFP8 != 0 {
			t.Errorf("%s: the H20's FP8 figures must not move it", id)
		}
	}
}

// A 16 Ki-token prefill of DeepSeek-V3 (block FP8) on 8 × H20, TP8, is
// compute-bound in its dense projections and routed experts: the FP8
// switch shortens the dense term by the FP8 GEMM rates' ratio
// (0.7894 / 0.92) and the experts by the grouped rates' (0.2110 / 0.87).
func TestH20FP8PrefillMovesByTheRates(t *testing.T) {
	savedK, savedF := UseH20KernelFigures, UseH20FP8Figures
	defer func() { UseH20KernelFigures, UseH20FP8Figures = savedK, savedF }()
	UseH20KernelFigures = true
	off, on := h20Prefill(t, "deepseek-v3", 8, "fp8", &UseH20FP8Figures)
	if got, want := on.ExpertS/off.ExpertS, DefaultEfficiency.ExpertGEMM/0.87; !perfNear(got, want, 0.02) {
		t.Errorf("expert term on/off %.3f, want %.3f: off %.0f ms, on %.0f ms", got, want, off.ExpertS*1e3, on.ExpertS*1e3)
	}
	if got, want := on.DenseS/off.DenseS, DefaultEfficiency.GEMMFP8/0.92; got < want*0.98 || got > 1 {
		t.Errorf("dense term on/off %.3f, want about %.3f (its BF16 parts do not move): off %.0f ms, on %.0f ms", got, want, off.DenseS*1e3, on.DenseS*1e3)
	}
	if on.AttentionS != off.AttentionS {
		t.Errorf("attention moved: %.4g → %.4g s", off.AttentionS, on.AttentionS)
	}
	// By hand: 58 MoE layers × 16,384 tokens × 8 experts × 3 × 7,168 ×
	// 2,048 × 2 FLOPs / 8 GPUs ≈ 8.4e13 FLOPs at 0.87 × 296 TF ≈ 0.33 s
	// (at the fitted 0.211: ≈1.34 s).
	if on.ExpertS < 0.28 || on.ExpertS > 0.40 {
		t.Errorf("expert term %.2f s, by hand ≈0.33 s", on.ExpertS)
	}
}

// h20Prefill is one 16,384-token prefill step of model on an H20 at TP tp
// with weights dtype, with the switch *sw off and on (the caller restores
// it).
func h20Prefill(t *testing.T, model string, tp int, dtype string, sw *bool) (off, on StepTime) {
	t.Helper()
	g := perfGPU(t, "h20-96g")
	const n = 16384.0
	step := func(v bool) StepTime {
		*sw = v
		s := StepSetup{Model: perfModel(t, model), HW: NewHardware(g, tp, 0, 2, 0, 0, 0), TP: tp, PP: 1, DP: 1,
			WeightDType: dtype, KVDType: "bf16", CUDAGraphs: true, Eff: ForGPU(DefaultEfficiency, g)}
		return NewStepModel(s).StepUniform(RankLoad{PrefillTokens: n, PrefillPairs: n * (n + 1) / 2, PrefillSeqs: 1})
	}
	return step(false), step(true)
}

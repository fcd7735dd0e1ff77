package perf

import (
	"math"
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

	saved := UseH20KernelFigures
	defer func() { UseH20KernelFigures = saved }()

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
	g := perfGPU(t, "h20-96g")
	const n = 16384.0
	step := func(on bool) StepTime {
		UseH20KernelFigures = on
		s := StepSetup{Model: perfModel(t, "qwen3-8b"), HW: NewHardware(g, 1, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
			WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: ForGPU(DefaultEfficiency, g)}
		return NewStepModel(s).StepUniform(RankLoad{PrefillTokens: n, PrefillPairs: n * (n + 1) / 2, PrefillSeqs: 1})
	}
	off, on := step(false), step(true)
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

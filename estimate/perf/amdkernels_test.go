package perf

import (
	"math"
	"testing"
)

// The AMD GPUs' cited figures are AMD's own published numbers over the
// catalog's dense peaks (amdFigures says where each comes from), given
// behind UseAMDKernelFigures to the three Instinct GPUs only; what no
// measurement covers keeps the global constants, and nothing pretends to
// have aiconfigurator's tables.
func TestAMDCitedFigures(t *testing.T) {
	r2 := func(x float64) float64 { return math.Round(x*100) / 100 }
	const bf16, fp8, mi355 = 1307.4, 2614.9, 2500.0
	// ROCm blog TAF (MI325X, ROCm 7.2.1): BF16 616.42, FP8 1,143.18 TF.
	// ROCm blog MAF part 2, Table 1: MI300X BF16 708, FP8 1,273 TF;
	// MI325X BF16 843, FP8 1,519 TF (same method and date).
	const tafBF16, tafFP8 = 616.42, 1143.18
	const maf300BF16, maf300FP8, maf325BF16, maf325FP8 = 708.0, 1273.0, 843.0, 1519.0
	// aiter op_tests/cpp/mha/README.md: fwd_v3 causal, b 1, h 64/8, d 128,
	// at 1, 2, 4, 8, 16 Ki tokens.
	mi300Attn := [5]float64{228.54, 392.425, 474.385, 518.29, 541.55}
	mi355Attn := [5]float64{432.565, 936.435, 1046.085, 1300.105, 1392.485}

	want := map[string]KernelFigures{
		"mi325x": {GEMMBF16: r2(tafBF16 / bf16), GEMMFP8: r2(tafFP8 / fp8)},
		"mi300x": {GEMMBF16: r2(tafBF16 * maf300BF16 / maf325BF16 / bf16), GEMMFP8: r2(tafFP8 * maf300FP8 / maf325FP8 / fp8)},
		"mi355x": {},
	}
	for i := range mi300Attn {
		for _, id := range []string{"mi300x", "mi325x"} {
			w := want[id]
			w.PrefillAttn[i] = r2(mi300Attn[i] / bf16)
			want[id] = w
		}
		w := want["mi355x"]
		w.PrefillAttn[i] = r2(mi355Attn[i] / mi355)
		want["mi355x"] = w
	}
	// By hand: MI325X 616.42 / 1,307.4 = 0.471 → 0.47; MI300X
	// 616.42 × 708 / 843 / 1,307.4 = 0.396 → 0.40; FP8 0.437 → 0.44 and
	// 1,143.18 × 1,273 / 1,519 / 2,614.9 = 0.366 → 0.37.
	if want["mi325x"].GEMMBF16 != 0.47 || want["mi300x"].GEMMBF16 != 0.40 || want["mi325x"].GEMMFP8 != 0.44 || want["mi300x"].GEMMFP8 != 0.37 {
		t.Fatalf("hand derivation drifted: %+v", want)
	}
	for id, w := range want {
		k := amdFigures[id]
		if k.GEMMBF16 != w.GEMMBF16 || k.GEMMFP8 != w.GEMMFP8 || k.PrefillAttn != w.PrefillAttn {
			t.Errorf("%s: GEMM %.2f/%.2f attn %v, want %.2f/%.2f %v", id, k.GEMMBF16, k.GEMMFP8, k.PrefillAttn, w.GEMMBF16, w.GEMMFP8, w.PrefillAttn)
		}
	}

	saved := UseAMDKernelFigures
	defer func() { UseAMDKernelFigures = saved }()

	UseAMDKernelFigures = false
	for id := range amdFigures {
		if got := ForGPU(DefaultEfficiency, perfGPU(t, id)); got != DefaultEfficiency {
			t.Errorf("%s with the switch off: the fitted constants", id)
		}
	}

	UseAMDKernelFigures = true
	for id, w := range want {
		g := perfGPU(t, id)
		e := ForGPU(DefaultEfficiency, g)
		wantGEMM, wantFP8 := w.GEMMBF16, w.GEMMFP8
		if wantGEMM == 0 {
			wantGEMM = DefaultEfficiency.GEMM
		}
		if wantFP8 == 0 {
			wantFP8 = DefaultEfficiency.GEMMFP8
		}
		if e.GEMM != wantGEMM || e.GEMMFP8 != wantFP8 || e.Kernels.Source() == "" {
			t.Errorf("%s: GEMM %.3f FP8 %.3f source %q; want %.2f, %.2f unscaled", id, e.GEMM, e.GEMMFP8, e.Kernels.Source(), wantGEMM, wantFP8)
		}
		if got := e.prefillAttnEff(16384); got != w.PrefillAttn[4] {
			t.Errorf("%s: prefill attention at 16 Ki %.3f, want the cited %.2f unscaled", id, got, w.PrefillAttn[4])
		}
		if got := e.prefillAttnEff(1024); got != w.PrefillAttn[0] {
			t.Errorf("%s: prefill attention at 1 Ki %.3f, want the cited %.2f", id, got, w.PrefillAttn[0])
		}
		// Not cited: the global constants.
		if e.Attention != DefaultEfficiency.Attention || e.HBM != DefaultEfficiency.HBM || e.KernelGapS != DefaultEfficiency.KernelGapS ||
			e.ExpertGEMM != DefaultEfficiency.ExpertGEMM || e.StepOverheadS != DefaultEfficiency.StepOverheadS {
			t.Errorf("%s: decode attention, HBM, kernel gap, experts and host must stay the fitted ones", id)
		}
		k := e.Kernels
		if k.System != "" || k.NCCL != nil || k.MoE != nil || k.AttnDecodeS != 0 || k.AllReduceS != 0 {
			t.Errorf("%s pretends to have aiconfigurator tables: %+v", id, k)
		}
		if _, ok := MeasuredKernels(g); ok {
			t.Errorf("%s: MeasuredKernels must still say no tables cover it", id)
		}
	}
	for _, id := range []string{"h800", "a800", "h100-sxm"} {
		e := ForGPU(DefaultEfficiency, perfGPU(t, id))
		if _, amd := amdKernels(perfGPU(t, id)); amd || e.Kernels.Cited != "" {
			t.Errorf("%s has no cited AMD figures", id)
		}
	}
}

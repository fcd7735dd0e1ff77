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

	saved, savedMoE := UseAMDKernelFigures, UseAMDMoEAndRCCL
	defer func() { UseAMDKernelFigures, UseAMDMoEAndRCCL = saved, savedMoE }()
	UseAMDMoEAndRCCL = false // TestAMDMoEAndRCCL covers its figures

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

// UseAMDMoEAndRCCL's figures are AITER's tuned fused-MoE rows and an
// Azure RCCL all-reduce table, re-derived here by hand: the curve's points
// from the rows' FLOPs and µs, the all-reduce share from the bus bandwidth
// over the catalog's xGMI figure; and they reach the step model's expert
// and all-reduce terms only with the switch on, only for the AMD GPUs.
func TestAMDMoEAndRCCL(t *testing.T) {
	saved, savedMoE := UseAMDKernelFigures, UseAMDMoEAndRCCL
	defer func() { UseAMDKernelFigures, UseAMDMoEAndRCCL = saved, savedMoE }()
	UseAMDKernelFigures = true

	// aiter a8w8_blockscale_tuned_fmoe_ds_v3.csv, cu_num 304 (MI325X):
	// model_dim 7168, inter_dim 2048, 33 experts, topk 9. A row's FLOPs:
	// 2 × tokens × 9 × 3 × 7168 × 2048; its tflops column agrees
	// (8,192 tokens: 6.4940e12 FLOPs / 6,928.7099 µs = 937.26 TF).
	fl := func(tokens, inter float64) float64 { return 2 * tokens * 9 * 3 * 7168 * inter }
	if tf := fl(8192, 2048) / 6928.7099e-6 / 1e12; math.Abs(tf-937.26) > 0.01 {
		t.Fatalf("8,192-token row: %.2f TF, aiter's column says 937.26", tf)
	}
	// Tokens per expert x = tokens × 9 / 33: 4,096 → 1,117.1 (log2 10.1255),
	// 8,192 → 2,234.2 (11.1255). The grid's x = 2,048 (log2 11) lies 0.8745
	// of the way: 914.88 and 937.26 TF over 2,614.9 are 0.34987 and 0.35843,
	// so 0.34987 + 0.8745 × 0.00856 = 0.3574.
	f4096, f8192 := fl(4096, 2048)/3549.0971e-6/2614.9e12, fl(8192, 2048)/6928.7099e-6/2614.9e12
	u := math.Log2(2048)
	x0, x1 := math.Log2(4096*9.0/33), math.Log2(8192*9.0/33)
	want2048 := f4096 + (u-x0)/(x1-x0)*(f8192-f4096)
	if math.Abs(want2048-0.3574) > 0.0005 {
		t.Fatalf("hand derivation drifted: %.4f", want2048)
	}
	// x = 256 (log2 8): between 512 tokens (x 139.6, 604.38 TF) and 1,024
	// (x 279.3, 744.01 TF): 0.2311 + 0.8745 × (0.2845 − 0.2311) = 0.2778,
	// above the fitted ExpertGEMM 0.211 the GPU had.
	f512, f1024 := fl(512, 2048)/671.5514e-6/2614.9e12, fl(1024, 2048)/1091.0448e-6/2614.9e12
	x0, x1 = math.Log2(512*9.0/33), math.Log2(1024*9.0/33)
	want256 := f512 + (8-x0)/(x1-x0)*(f1024-f512)
	if math.Abs(want256-0.2778) > 0.0005 {
		t.Fatalf("hand derivation drifted: %.4f", want256)
	}
	// MI355X (cu_num 256, inter_dim 512, 257 experts): 8,192 tokens (x
	// 286.9) in 2,305.846 µs is 704.08 TF, 0.1408 of 5,000; past the last
	// row the curve holds it.
	want355 := fl(8192, 512) / 2305.846e-6 / 5000e12
	if math.Abs(want355-0.1408) > 0.0005 {
		t.Fatalf("hand derivation drifted: %.4f", want355)
	}

	UseAMDMoEAndRCCL = false
	for _, id := range []string{"mi300x", "mi325x", "mi355x"} {
		if k := ForGPU(DefaultEfficiency, perfGPU(t, id)).Kernels; k.MoE != nil || k.AllReduceLink != 0 {
			t.Errorf("%s with the switch off: no MoE curve or all-reduce share", id)
		}
	}

	UseAMDMoEAndRCCL = true
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	k325 := ForGPU(DefaultEfficiency, perfGPU(t, "mi325x")).Kernels
	k300 := ForGPU(DefaultEfficiency, perfGPU(t, "mi300x")).Kernels
	k355 := ForGPU(DefaultEfficiency, perfGPU(t, "mi355x")).Kernels
	if k325.MoE == nil || k300.MoE == nil || k355.MoE == nil {
		t.Fatal("switch on: every AMD GPU has its FP8 curve")
	}
	if c := k325.MoE.FP8; !near(c[15], want2048) || !near(c[12], want256) {
		t.Errorf("MI325X curve at x 2,048 / 256: %.4f / %.4f, want %.4f / %.4f", c[15], c[12], want2048, want256)
	}
	// The MI300X: the MI325X's rates × AMD's FP8 MAF ratio 1,273 / 1,519.
	if c := k300.MoE.FP8; !near(c[15], want2048*1273/1519) || !near(c[12], want256*1273/1519) {
		t.Errorf("MI300X curve at x 2,048 / 256: %.4f / %.4f", c[15], c[12])
	}
	if c := k355.MoE.FP8; !near(c[15], want355) {
		t.Errorf("MI355X curve past its last row: %.4f, want %.4f", c[15], want355)
	}
	for _, k := range []KernelFigures{k325, k300, k355} {
		if k.MoE.BF16[0] != 0 || k.MoE.NVFP4[0] != 0 || k.MoE.MXFP4[0] != 0 {
			t.Error("only FP8 is cited")
		}
	}
	// RCCL: 316.82 GB/s bus bandwidth at 8 GB over 448 GB/s = 0.707.
	if r := math.Round(316.82/448*100) / 100; k300.AllReduceLink != r || k325.AllReduceLink != r || k355.AllReduceLink != 0 {
		t.Errorf("all-reduce share %.2f / %.2f / %.2f, want %.2f, %.2f, none for the MI355X", k300.AllReduceLink, k325.AllReduceLink, k355.AllReduceLink, r, r)
	}
	for _, id := range []string{"h100-sxm", "h20-96g", "h800"} {
		k := ForGPU(DefaultEfficiency, perfGPU(t, id)).Kernels
		if k.System == "" && (k.MoE != nil || k.AllReduceLink != 0) {
			t.Errorf("%s: the AMD figures are the AMD GPUs' only", id)
		}
	}

	// The step model: DeepSeek-R1 in FP8 on 8 × MI325X, TP8, an 8,192-token
	// prefill. The experts read the curve unscaled at x = 8,192 × 8 / 256
	// = 256 tokens an expert; the TP all-reduce its ring bytes at 0.71 of
	// the xGMI link, plus the link model's fixed cost.
	g := perfGPU(t, "mi325x")
	setup := func() StepSetup {
		return StepSetup{Model: perfModel(t, "deepseek-r1"), HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
			WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: ForGPU(DefaultEfficiency, g)}
	}
	on := NewStepModel(setup())
	d := on.ExpertDiagAt(8192)
	if d.Curve != "fp8" || d.CurveX != 256 {
		t.Fatalf("expert term: curve %q at x %.1f, want fp8 at 256", d.Curve, d.CurveX)
	}
	if !near(d.CurveFLOPS, 2614.9e12*want256) {
		t.Errorf("expert rate %.4g, want 2,614.9 TF × %.4f unscaled", d.CurveFLOPS, want256)
	}
	msg := 8192 * 7168 * 2.0
	ring := RingAllReduceBytes(msg, 8)
	s := &on.S
	wantAR := ring/(s.HW.IntraBytesPerS*0.71) + 2*s.HW.IntraLatencyS + s.Eff.CollectiveS
	if got := on.tpAllReduce(msg); !near(got, wantAR) {
		t.Errorf("all-reduce of 8,192 × 7,168 BF16: %.4g s, want %.4g", got, wantAR)
	}
	UseAMDMoEAndRCCL = false
	off := NewStepModel(setup())
	if d := off.ExpertDiagAt(8192); d.Curve != "" || !near(d.ComputeS, d.FLOPs/(2614.9e12*DefaultEfficiency.ExpertGEMM)) {
		t.Errorf("switch off: the fitted ExpertGEMM prices the experts (%+v)", d)
	}
	if got := off.tpAllReduce(msg); got >= wantAR {
		t.Errorf("switch off: the fitted Link (%.3f) prices the all-reduce faster than RCCL's 0.71 (%.4g ≥ %.4g)", DefaultEfficiency.Link, got, wantAR)
	}
}

package perf

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// At reads the grid points exactly, interpolates in log2 of the tokens per
// expert between them and holds the end values beyond the grid.
func TestMoECurveAt(t *testing.T) {
	var c MoECurve
	for i := range c {
		c[i] = float64(i + 1) // x = 2^(i−4) → i+1
	}
	for _, tc := range []struct{ x, want float64 }{
		{1.0 / 16, 1}, {1, 5}, {64, 11}, {2048, 16}, // grid points
		{math.Sqrt2, 5.5}, {96, 11 + math.Log2(1.5)}, // between
		{1e-3, 1}, {0, 1}, {1e6, 16}, // beyond the ends
	} {
		if got := c.At(tc.x); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("At(%g) = %g, want %g", tc.x, got, tc.want)
		}
	}
}

// moeCurvesFile is tools/aicdata/moe_curves.json, the tool's output the
// curves of kernels.go are copied from.
type moeCurvesFile []struct {
	System string    `json:"system"`
	Dtype  string    `json:"dtype"`
	Eff    []float64 `json:"eff"`
}

// Every fused-MoE curve of kernels.go is the one tools/aicdata derived
// (to the 3 significant digits it prints): the table is copied by hand.
func TestMoECurvesAreTheDerivedCurves(t *testing.T) {
	data, err := os.ReadFile("../../tools/aicdata/moe_curves.json")
	if err != nil {
		t.Fatal(err)
	}
	var f moeCurvesFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	derived := map[string][]float64{}
	for _, c := range f {
		derived[c.System+"/"+c.Dtype] = c.Eff
	}
	n := 0
	for sys, cs := range moeCurves {
		for dtype, c := range map[string]MoECurve{"bfloat16": cs.BF16, "fp8_block": cs.FP8, "nvfp4": cs.NVFP4, "w4a16_mxfp4": cs.MXFP4} {
			want, ok := derived[sys+"/"+dtype]
			if c[0] == 0 {
				if ok && sys != "l40s" && sys != "rtx_pro_6000_server" && sys != "a100_sxm" {
					t.Errorf("%s %s: derived but not in kernels.go", sys, dtype)
				}
				continue
			}
			if !ok || len(want) != len(c) {
				t.Errorf("%s %s: no derived curve of %d points", sys, dtype, len(c))
				continue
			}
			for i := range c {
				if math.Abs(c[i]-want[i]) > 0.005*want[i]+1e-9 {
					t.Errorf("%s %s point %d: table %.4g, derived %.4g", sys, dtype, i, c[i], want[i])
				}
			}
			n++
		}
	}
	if n < 18 {
		t.Errorf("only %d curves checked", n)
	}
	// The MXFP4 curve names the kernel the 0.24.0 tables timed: vLLM's
	// Triton (triton_kernels) path on Hopper, FlashInfer's TRT-LLM MXFP4 ×
	// BF16 on Blackwell (tools/aicdata moeRows keeps only those rows).
	for sys, cs := range moeCurves {
		want := vllm.MXFP4MoEFlashInferTRTLLM
		if sys == "h100_sxm" || sys == "h200_sxm" {
			want = vllm.MXFP4MoETriton
		}
		if cs.MXFP4[0] > 0 && cs.MXFP4Kernel != want {
			t.Errorf("%s: MXFP4 curve labelled %q, the tables ran %q", sys, cs.MXFP4Kernel, want)
		}
	}
	// Every system with curves is one measuredKernels names.
	for sys := range moeCurves {
		found := false
		for _, k := range measuredKernels {
			found = found || k.System == sys
		}
		if !found {
			t.Errorf("curves for %s, which no measured GPU uses", sys)
		}
	}
}

// A covered GPU's fused-MoE time follows the measured curve, scaled by
// MeasuredCompute, at the experts' tokens per expert; below the ridge
// the curve is held at its ridge value (the memory term prices streaming
// there); an uncovered GPU, a dtype without a curve and DeepEP keep the
// fitted ExpertGEMM.
func TestExpertTimeReadsTheMoECurve(t *testing.T) {
	m := perfModel(t, "qwen3-30b-a3b")
	setup := func(gpu, dtype string, ep bool) *StepModel {
		g := perfGPU(t, gpu)
		s := StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1, EP: ep,
			WeightDType: dtype, KVDType: "bf16", CUDAGraphs: true, Eff: ForGPU(DefaultEfficiency, g)}
		return NewStepModel(s)
	}
	h100 := setup("h100-sxm", "bf16", false)
	c := h100.S.moeCurve()
	if c == nil || *c != moeCurves["h100_sxm"].BF16 {
		t.Fatal("H100 BF16 experts do not read the H100 BF16 curve")
	}
	experts, topk := float64(m.NumExperts), float64(m.ExpertsPerToken)
	ridge := h100.S.moeRidge()
	if want := h100.S.HW.BF16FLOPS * 2 / (2 * h100.S.HW.HBMBytesPerS); math.Abs(ridge-want) > 1e-9*want || ridge < 100 || ridge > 1000 {
		t.Fatalf("ridge %g tokens per expert, want %g", ridge, want)
	}
	for _, tokens := range []float64{8192, 4 * ridge * experts / topk} {
		var st StepTime
		h100.expertTime(tokens, &st)
		flops, _ := h100.expertWork(tokens)
		want := flops / (h100.S.HW.BF16FLOPS * c.At(tokens*topk/experts) * DefaultEfficiency.MeasuredCompute)
		if !perfNear(st.ComputeS, want, 1e-9) {
			t.Errorf("%g tokens: compute %.4g s, want the curve's %.4g s", tokens, st.ComputeS, want)
		}
	}
	// Below the ridge: the ridge's efficiency, so compute scales with FLOPs.
	small := ridge * experts / topk / 8
	var st StepTime
	h100.expertTime(small, &st)
	flops, _ := h100.expertWork(small)
	if want := flops / (h100.S.HW.BF16FLOPS * c.At(ridge) * DefaultEfficiency.MeasuredCompute); !perfNear(st.ComputeS, want, 1e-9) {
		t.Errorf("below the ridge: compute %.4g s, want %.4g s at the ridge's efficiency", st.ComputeS, want)
	}
	if st.ComputeS >= st.MemoryS {
		t.Errorf("below the ridge the experts should stream: compute %.3g s ≥ memory %.3g s", st.ComputeS, st.MemoryS)
	}
	// FP8 reads the fp8_block curve; int4 has none, MXFP4 none without a
	// release (ForGPU: the kernel is the release's); H20
	// has no tables; DeepEP's DeepGEMM is not the fused MoE.
	if c := setup("h100-sxm", "fp8", false).S.moeCurve(); c == nil || *c != moeCurves["h100_sxm"].FP8 {
		t.Error("H100 FP8 experts do not read the FP8 curve")
	}
	for name, sm := range map[string]*StepModel{"H100 int4": setup("h100-sxm", "int4", false), "H20 bf16": setup("h20", "bf16", false), "H100 nvfp4": setup("h100-sxm", "nvfp4", false), "H200 mxfp4 without a release": setup("h200", "mxfp4", false)} {
		if sm.S.moeCurve() != nil {
			t.Errorf("%s: a curve where the tables have none", name)
		}
		var st StepTime
		sm.expertTime(8192, &st)
		flops, _ := sm.expertWork(8192)
		if want := flops / (sm.S.gemmFLOPS() * DefaultEfficiency.ExpertGEMM); !perfNear(st.ComputeS, want, 1e-9) {
			t.Errorf("%s: compute %.4g s, want the fitted constant's %.4g s", name, st.ComputeS, want)
		}
	}
	deepep := setup("h100-sxm", "bf16", true)
	deepep.S.A2A = vllm.TrafficPerExpert
	if deepep.S.moeCurve() != nil {
		t.Error("DeepEP experts read the fused-MoE curve")
	}
}

// gpt-oss's MXFP4 experts read the measured curve only where the release
// runs the kernel the tables timed on that GPU (vllm.Release.
// MXFP4MoEBackend), and then as measured (mxfp4Unscaled): Triton on Hopper
// from 0.14.0, FlashInfer TRT-LLM on Blackwell at 0.24.0; Marlin (Hopper
// through 0.11.0, or VLLM_MXFP4_USE_MARLIN=1), an unpinned release, a GPU
// without tables and another engine keep the fitted ExpertGEMM.
func TestMXFP4CurveFollowsTheRelease(t *testing.T) {
	m := perfModel(t, "gpt-oss-120b")
	setup := func(gpu, version string, isVLLM bool, env map[string]string) *StepModel {
		g := perfGPU(t, gpu)
		rel, _, err := vllm.ResolveString(version)
		if err != nil {
			t.Fatal(err)
		}
		s := StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
			WeightDType: "mxfp4", KVDType: "bf16", CUDAGraphs: true, Eff: ForRelease(DefaultEfficiency, g, rel, isVLLM, env)}
		return NewStepModel(s)
	}
	const tokens = 5000 // one prompt of llm-d's P/D rows: 156 tokens per expert
	expertS := func(sm *StepModel) float64 {
		var st StepTime
		sm.expertTime(tokens, &st)
		return st.ComputeS
	}
	flops, _ := setup("h200", "0.24.0", true, nil).expertWork(tokens)
	x := tokens * float64(m.ExpertsPerToken) / float64(m.NumExperts)
	for _, tc := range []struct {
		gpu, version string
		isVLLM       bool
		env          map[string]string
		curve        string // system whose MXFP4 curve prices the experts; "" the constant
	}{
		{"h200", "0.24.0", true, nil, "h200_sxm"},
		{"h200", "0.27.1", true, nil, "h200_sxm"},
		{"h100-sxm", "0.15.1", true, nil, "h100_sxm"},
		{"b200", "0.24.0", true, nil, "b200_sxm"},
		{"h200", "0.11.0", true, nil, ""},                                                 // Marlin
		{"h100-sxm", "0.10.2", true, nil, ""},                                             // Marlin
		{"h200", "0.12.0", true, nil, ""},                                                 // not pinned
		{"h100-sxm", "0.15.1", true, map[string]string{"VLLM_MXFP4_USE_MARLIN": "1"}, ""}, // forced Marlin
		{"h200", "0.24.0", false, nil, ""},                                                // another engine
		{"h20", "0.24.0", true, nil, ""},                                                  // no tables
	} {
		sm := setup(tc.gpu, tc.version, tc.isVLLM, tc.env)
		want := flops / (sm.S.gemmFLOPS() * DefaultEfficiency.ExpertGEMM)
		if tc.curve != "" {
			c := moeCurves[tc.curve].MXFP4
			want = flops / (sm.S.gemmFLOPS() * c.At(max(x, sm.S.moeRidge())))
		}
		if got := expertS(sm); !perfNear(got, want, 1e-9) {
			t.Errorf("%s vLLM %s (vllm %v, env %v): experts %.4g s, want %.4g s (curve %q)", tc.gpu, tc.version, tc.isVLLM, tc.env, got, want, tc.curve)
		}
	}
	// On Triton the experts of a 5,000-token prompt take under 60% of the
	// constant's time on H200, as llm-d's measured prefill rate requires.
	if tri, mar := expertS(setup("h200", "0.24.0", true, nil)), expertS(setup("h200", "0.11.0", true, nil)); tri > 0.6*mar {
		t.Errorf("H200 experts: Triton %.3g s, Marlin-era constant %.3g s", tri, mar)
	}
}

// TestKimiK3MXFP4Experts: Kimi-K3's routed experts are compressed-tensors
// MXFP4 (catalog.FormatMXFP4), which the step model runs as gpt-oss's MXFP4
// experts — one path, not a second: 4.25 bits a weight streamed (not
// NVFP4's 4.5), the BF16 peak (the MXFP4 × BF16 kernels; the "nvfp4" label
// priced every GEMM, K3's BF16 attention and shared experts included, at
// B200's FP4 peak), and the measured MXFP4 curve only where the release
// runs the kernel it timed (vllm.Release.MXFP4MoEBackend: FlashInfer
// TRT-LLM on Blackwell, pinned from 0.24.0; before it, or with
// VLLM_MXFP4_USE_MARLIN=1, the fitted constant). Kimi-K3's experts do
// take gpt-oss's method: vLLM rewrites its compressed-tensors config to
// quant_method "mxfp4" (vllm.MXFP4MethodFor), so they never reach
// CompressedTensorsW4A4Mxfp4MoEMethod's CUTLASS W4A4 kernel (which has no
// SiTU either); other compressed-tensors MXFP4 experts do
// (TestPackedMXFP4Experts). Whether the oracle's FlashInfer TRT-LLM kernel
// takes K3's SiTU on Blackwell was not traced.
func TestKimiK3MXFP4Experts(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/kimi-k3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.CheckpointDType() != "mxfp4" {
		t.Fatalf("Kimi-K3 ships %s", m.CheckpointDType())
	}
	g := perfGPU(t, "b200")
	setup := func(version string, env map[string]string) *StepModel {
		rel, _, err := vllm.ResolveString(version)
		if err != nil {
			t.Fatal(err)
		}
		s := StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
			WeightDType: m.CheckpointDType(), KVDType: "bf16", CUDAGraphs: true, Eff: ForRelease(DefaultEfficiency, g, rel, true, env)}
		return NewStepModel(s)
	}
	for _, tc := range []struct {
		version string
		env     map[string]string
		curve   bool
	}{{"0.24.0", nil, true}, {"0.26.0", nil, true}, {"0.20.0", nil, false}, {"0.26.0", map[string]string{"VLLM_MXFP4_USE_MARLIN": "1"}, false}} {
		sm := setup(tc.version, tc.env)
		if sm.S.gemmFLOPS() != sm.S.HW.BF16FLOPS || sm.S.gemmFLOPS() == sm.S.HW.FP4FLOPS {
			t.Errorf("%s: GEMMs at %.3g FLOP/s, want the BF16 peak %.3g", tc.version, sm.S.gemmFLOPS(), sm.S.HW.BF16FLOPS)
		}
		// One expert at its latent width: 3 × 3,584 × 3,072 weights.
		if want := 3 * 3584 * 3072 * 4.25 / 8; !perfNear(sm.expertBytes, want, 1e-12) {
			t.Errorf("%s: one expert streams %.0f B, want %.0f (4.25 bits)", tc.version, sm.expertBytes, want)
		}
		if sm.S.denseBytesPerParam() != 2 {
			t.Errorf("%s: dense weights at %.3f B, want BF16 (the ignore list keeps them)", tc.version, sm.S.denseBytesPerParam())
		}
		if got := sm.S.moeCurve(); (got != nil) != tc.curve || (got != nil && *got != moeCurves["b200_sxm"].MXFP4) {
			t.Errorf("%s %v: MXFP4 curve %v, want B200's: %v", tc.version, tc.env, got, tc.curve)
		}
	}
}

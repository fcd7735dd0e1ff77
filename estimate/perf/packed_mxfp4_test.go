package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestPackedMXFP4Experts: compressed-tensors MXFP4 experts that vLLM serves
// through CompressedTensorsW4A4Mxfp4MoEMethod run CUTLASS's MXFP4 × MXFP4
// grouped GEMM on B200 (vllm.Release.PackedMXFP4MoEBackend, pinned at
// 0.28.0), so their GEMMs take B200's FP4 peak, 9,000 TFLOP/s, not the BF16
// 2,250, and never gpt-oss's measured MXFP4 curve (another kernel);
// unpinned releases keep the BF16 peak and the fitted constant. Kimi-K3,
// whose compressed-tensors config vLLM rewrites to gpt-oss's Mxfp4MoEMethod
// (vllm.MXFP4MethodFor), keeps the gpt-oss path at every release:
// check_kimi_k3.txtar does not move. The packed checkpoint here is Kimi-K3's
// config under another architecture name: same shapes, the method decided
// by the name alone.
func TestPackedMXFP4Experts(t *testing.T) {
	k3, err := catalog.LoadHFConfig("../../catalog/testdata/hf/kimi-k3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if k3.Architecture != "KimiK3ForConditionalGeneration" || k3.Quant.Method != "compressed-tensors" {
		t.Fatalf("Kimi-K3 read as %s / %s", k3.Architecture, k3.Quant.Method)
	}
	packed := *k3
	packed.Architecture = "PackedMXFP4MoEForCausalLM"
	g := perfGPU(t, "b200")
	setup := func(m *catalog.Model, version string) *StepModel {
		rel, _, err := vllm.ResolveString(version)
		if err != nil {
			t.Fatal(err)
		}
		s := StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
			WeightDType: m.CheckpointDType(), KVDType: "bf16", CUDAGraphs: true, Eff: ForRelease(DefaultEfficiency, g, rel, true, nil)}
		return NewStepModel(s)
	}
	for _, tc := range []struct {
		name    string
		m       *catalog.Model
		version string
		peak    float64 // the experts' peak, FLOP/s
		curve   bool
	}{
		{"packed 0.28.0", &packed, "0.28.0", 9000e12, false},
		{"packed 0.26.0", &packed, "0.26.0", 2250e12, false},
		{"Kimi-K3 0.28.0", k3, "0.28.0", 2250e12, true},
		{"Kimi-K3 0.26.0", k3, "0.26.0", 2250e12, true},
	} {
		sm := setup(tc.m, tc.version)
		if got := sm.S.expertFLOPS(); got != tc.peak {
			t.Errorf("%s: experts at %.4g FLOP/s, want %.4g", tc.name, got, tc.peak)
		}
		if sm.S.gemmFLOPS() != 2250e12 {
			t.Errorf("%s: dense GEMMs at %.4g FLOP/s, want the BF16 peak (the ignore list keeps them BF16)", tc.name, sm.S.gemmFLOPS())
		}
		if got := sm.S.moeCurve(); (got != nil) != tc.curve {
			t.Errorf("%s: MXFP4 curve %v, want %v", tc.name, got != nil, tc.curve)
		}
	}

	// By hand, one 8,192-token prefill at TP 8 (EP off: every GPU holds an
	// eighth of every expert): 8,192 × 16 / 8 = 16,384 token-expert pairs
	// per GPU through 3 × 3,584 × 3,072 = 33,030,144 weights in each of 92
	// MoE layers: 2 × 16,384 × 33,030,144 × 92 = 9.9575e13 FLOPs, at the
	// FP4 peak times the fitted ExpertGEMM share (0.2110): 52.44 ms of
	// compute, a quarter of the BF16 path's 209.7 ms; the memory term (the
	// weights and the pairs' activations) is the same bytes either way, so
	// the step takes the larger of the two.
	const flops = 2 * 16384 * 33030144 * 92.0
	sm := setup(&packed, "0.28.0")
	f, _ := sm.expertWork(8192)
	if !perfNear(f, flops, 1e-9) {
		t.Fatalf("expert FLOPs %.6g, want %.6g", f, flops)
	}
	var st StepTime
	sm.expertTime(8192, &st)
	want := flops / (9000e12 * DefaultEfficiency.ExpertGEMM)
	if !perfNear(st.ComputeS, want, 1e-9) || st.ExpertS != max(st.ComputeS, st.MemoryS) {
		t.Errorf("packed experts at 0.28.0: compute %.4g s (want %.4g), memory %.4g s, expert time %.4g s", st.ComputeS, want, st.MemoryS, st.ExpertS)
	}
	var bf StepTime
	setup(&packed, "0.26.0").expertTime(8192, &bf)
	if !perfNear(bf.ComputeS, 4*want, 1e-9) || !perfNear(bf.MemoryS, st.MemoryS, 1e-12) {
		t.Errorf("packed experts at 0.26.0: compute %.4g s, memory %.4g s, want %.4g and %.4g (the BF16 peak, the same bytes)", bf.ComputeS, bf.MemoryS, 4*want, st.MemoryS)
	}
	t.Logf("8,192-token prefill, experts per GPU: W4A4 compute %.1f ms, W4A16 %.1f ms, weights and activations %.1f ms", 1e3*st.ComputeS, 1e3*bf.ComputeS, 1e3*st.MemoryS)
}

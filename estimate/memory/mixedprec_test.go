package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// mixedWeights estimates m at TP tp on B200s with the checkpoint's own
// weights and returns the weight terms by component.
func mixedWeights(t *testing.T, m *catalog.Model, tp int) map[string]WeightTerm {
	t.Helper()
	g, err := catalog.LookupGPU("b200")
	if err != nil {
		t.Fatal(err)
	}
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.20.0", Layout: input.Layout{TP: tp, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: tp}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192}); ds.HasErrors() {
		t.Fatal(ds)
	}
	out := map[string]WeightTerm{}
	for _, w := range Estimate(in).Weights {
		out[w.Component] = w
	}
	return out
}

// TestMixedPrecisionWeightsPerGPU: per-GPU bytes of the mixed-precision
// checkpoints, by component, against a hand derivation (catalog's
// TestMixedPrecisionQwen36 derives Qwen3.6's parameters):
//
//   - nvidia/Qwen3.6-35B-A3B-NVFP4 on one GPU: routed experts 32,212,254,720
//     × 0.5625 B; the LM head 508,559,360 × 0.5625 B (NVFP4: vLLM's
//     ModelOptMixedPrecisionConfig quantizes ParallelLMHead when
//     quantized_layers names lm_head); attention FP8 (1,279,262,720 × 1 B)
//     with the rest of its 1,284,188,800 parameters BF16; embeddings BF16.
//   - nvidia/DeepSeek-V4-Flash-NVFP4 at TP 4: routed experts (43 × 256 × 3 ×
//     4,096 × 2,048 = 277,025,390,592, flattened over 4 ranks) at NVFP4's
//     0.5625 B where deepseek-ai's release stores MXFP4's 0.53125 B;
//     attention stays block FP8.
func TestMixedPrecisionWeightsPerGPU(t *testing.T) {
	q, err := catalog.LoadHFConfig("../../catalog/testdata/ckpt/nvidia--Qwen3.6-35B-A3B-NVFP4/config.json")
	if err != nil {
		t.Fatal(err)
	}
	w := mixedWeights(t, q, 1)
	const fp8Attn = 1279262720.0
	for _, tc := range []struct {
		comp, dtype string
		bytes       float64
	}{
		{CompRouted, "nvfp4", 32212254720 * 0.5625},
		{CompLMHead, "nvfp4", 508559360 * 0.5625},
		{CompAttention, "fp8", fp8Attn + 2*(1284188800-fp8Attn)},
		{CompShared, "nvfp4", 125829120*0.5625 + 40*2048*2},
		{CompEmbedding, "bf16", 0},
	} {
		term, ok := w[tc.comp]
		if !ok {
			t.Errorf("Qwen3.6: no %s term", tc.comp)
			continue
		}
		if term.DType != tc.dtype {
			t.Errorf("Qwen3.6 %s: dtype %s, want %s (%s)", tc.comp, term.DType, tc.dtype, term.Why)
		}
		if got := term.GiB * GiB; tc.bytes > 0 && math.Abs(got/tc.bytes-1) > 1e-6 {
			t.Errorf("Qwen3.6 %s: %.0f B, by hand %.0f B", tc.comp, got, tc.bytes)
		}
	}

	flash := func(dir string) map[string]WeightTerm {
		m, err := catalog.LoadHFConfig("../../catalog/testdata/" + dir)
		if err != nil {
			t.Fatal(err)
		}
		return mixedWeights(t, m, 4)
	}
	nv := flash("ckpt/nvidia--DeepSeek-V4-Flash-NVFP4/config.json")
	ds := flash("hf/deepseek-v4-flash.verbatim.json")
	const experts = 43 * 256 * 3 * 4096 * 2048 / 4.0
	if r := nv[CompRouted]; r.DType != "nvfp4" || math.Abs(r.GiB*GiB/(experts*0.5625)-1) > 1e-6 {
		t.Errorf("DeepSeek-V4-Flash-NVFP4 experts: %s %.0f B, by hand %.0f B", r.DType, r.GiB*GiB, experts*0.5625)
	}
	if r := ds[CompRouted]; r.DType != "mxfp4" || math.Abs(r.GiB*GiB/(experts*0.53125)-1) > 1e-6 {
		t.Errorf("DeepSeek-V4-Flash experts: %s %.0f B, by hand %.0f B", r.DType, r.GiB*GiB, experts*0.53125)
	}
	if a, b := nv[CompAttention], ds[CompAttention]; a.DType != "fp8" || a.GiB != b.GiB {
		t.Errorf("attention: NVFP4 release %s %.3f GiB, DeepSeek's %s %.3f GiB", a.DType, a.GiB, b.DType, b.GiB)
	}
}

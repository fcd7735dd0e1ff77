package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/resolve"
)

// Bytes per parameter of the formats, derived by hand from their layouts.
const (
	hbBF16     = 2.0
	hbFP8Block = 1 + 4.0/(128*128) // 1 byte + one fp32 scale per 128×128 block
	hbMXFP4    = 0.5 + 1.0/32      // 4 bits + one E8M0 byte per 32 values
	hbNVFP4    = 0.5 + 1.0/16      // 4 bits + one FP8 scale per 16 values
	hbINT4g32  = 0.5 + 2.0/32      // 4 bits + one 16-bit scale per 32 values
)

// hfInput resolves an HF config of catalog/testdata (its hf_quant_config.json
// next to it, if any) on gpu at TP tp, weights and KV cache auto.
func hfInput(t *testing.T, path, gpu string, tp int, ep bool) *input.Input {
	t.Helper()
	m, err := catalog.LoadHFConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	g := perfGPU(t, gpu)
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.11.0", Layout: input.Layout{TP: tp, PP: 1, DP: 1, EP: ep, Nodes: 1, GPUsPerNode: tp}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestStorageBytesFollowMemory: the step model streams each checkpoint's
// weights at the bytes the memory model stores them in (issues #23/#28).
// Per component the bytes are derived by hand from the checkpoint's
// config; the dense figure is their mean weighted by the step's own
// partition (denseParts). "before" is what the step model streamed
// without the memory model's rule (perfBytesPerParam, denseBytesPerParam).
func TestStorageBytesFollowMemory(t *testing.T) {
	// nvidia/DeepSeek-V3.1-NVFP4 at TP4 (catalog/testdata/ckpt): its
	// exclude_modules keep q_a, q_b, kv_a and kv_b in BF16 in every layer;
	// o_proj, the dense MLPs and the shared experts are NVFP4 (as
	// estimate/memory TestDeepSeekNVFP4WeightsPerGPU works out). The
	// attention's NVFP4 share is o_proj's among one rank's projections
	// (q_a and kv_a whole, q_b, kv_b and o split by head), applied to the
	// attention's parameters (its two latent norms too, 0.01% of them).
	const h, ql, kvl, nh, tp4 = 7168.0, 1536.0, 512.0, 128.0, 4.0
	oProj := nh * 128 * h / tp4
	share := oProj / (h*ql + h*(kvl+64) + (ql*nh*192+kvl*nh*256)/tp4 + oProj)
	dsNVFP4Attn := share*hbNVFP4 + (1-share)*hbBF16

	cases := []struct {
		name string
		in   func(t *testing.T) *input.Input
		// expert and per-component dense bytes, by hand; norms are 16-bit
		// in every case.
		expert                                    float64
		attn, denseMLP, shared, router, indexer   float64
		lmHead, beforeExpert, beforeDense, before float64
	}{
		{name: "DeepSeek-V4-Flash (FP8 config, expert_dtype fp4)",
			in: func(t *testing.T) *input.Input {
				return testinput.Quick(t, resolve.QuickOptions{Model: "deepseek-v4-flash", GPU: "h100-sxm", TP: 8, EP: true, MaxModelLen: 8192})
			},
			expert: hbMXFP4, attn: hbFP8Block, denseMLP: hbFP8Block, shared: hbFP8Block, router: hbBF16, indexer: hbFP8Block,
			lmHead: hbBF16, beforeExpert: hbFP8Block, beforeDense: hbFP8Block},
		{name: "gpt-oss-120b (MXFP4 experts, BF16 rest)",
			in: func(t *testing.T) *input.Input {
				return testinput.Quick(t, resolve.QuickOptions{Model: "gpt-oss-120b", GPU: "h100-sxm", TP: 1, MaxModelLen: 8192})
			},
			expert: hbMXFP4, attn: hbBF16, denseMLP: hbBF16, shared: hbBF16, router: hbBF16, indexer: hbBF16,
			lmHead: hbBF16, beforeExpert: hbMXFP4, beforeDense: hbBF16},
		{name: "Kimi-K2.5 INT4 (compressed-tensors group 32 experts, BF16 rest)",
			in: func(t *testing.T) *input.Input {
				return hfInput(t, "../../catalog/testdata/hf/kimi-k2.5.json", "h200", 8, true)
			},
			expert: hbINT4g32, attn: hbBF16, denseMLP: hbBF16, shared: hbBF16, router: hbBF16, indexer: hbBF16,
			lmHead: hbBF16, beforeExpert: (4 + 16.0/128) / 8, beforeDense: hbBF16},
		{name: "DeepSeek-V3.1-NVFP4 (ModelOpt exclude_modules)",
			in: func(t *testing.T) *input.Input {
				return hfInput(t, "../../catalog/testdata/ckpt/nvidia--DeepSeek-V3.1-NVFP4/config.json", "b200", 4, false)
			},
			expert: hbNVFP4, attn: dsNVFP4Attn, denseMLP: hbNVFP4, shared: hbNVFP4, router: hbBF16, indexer: hbNVFP4,
			lmHead: hbBF16, beforeExpert: hbNVFP4, beforeDense: hbBF16},
		{name: "Llama-3.1-8B BF16 (dense)",
			in: func(t *testing.T) *input.Input {
				return testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100-sxm", TP: 1, MaxModelLen: 8192})
			},
			attn: hbBF16, denseMLP: hbBF16, shared: hbBF16, router: hbBF16, indexer: hbBF16,
			lmHead: hbBF16, beforeDense: hbBF16},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			m := in.Model
			want := map[string]float64{memory.CompAttention: tc.attn, memory.CompDenseMLP: tc.denseMLP, memory.CompShared: tc.shared,
				memory.CompRouter: tc.router, memory.CompNorms: hbBF16, memory.CompIndexer: tc.indexer, memory.CompLatentProj: tc.indexer}
			var params, bytes float64
			for _, d := range denseParts(m, float64(in.Layout.TP)) {
				params += d.params
				bytes += d.params * want[d.comp]
			}
			wantDense := bytes / params

			s := SetupFromInput(in)
			b := s.Storage
			if !perfNear(b.Expert, tc.expert, 1e-12) || !perfNear(b.Dense, wantDense, 1e-12) || !perfNear(b.LMHead, tc.lmHead, 1e-12) {
				t.Errorf("storage %+v, want experts %.6g, dense %.6g, LM head %.6g", b, tc.expert, wantDense, tc.lmHead)
			}
			// The coarse rules this replaces, for the record.
			fb := s
			fb.Storage = StorageBytes{}
			if m.IsMoE() && !perfNear(fb.expertBytesPerParam(), tc.beforeExpert, 1e-12) || !perfNear(fb.denseBytes(), tc.beforeDense, 1e-12) {
				t.Errorf("coarse rules: experts %.6g dense %.6g, want %.6g %.6g", fb.expertBytesPerParam(), fb.denseBytes(), tc.beforeExpert, tc.beforeDense)
			}
			if m.IsMoE() {
				t.Logf("experts %.6g -> %.6g B", fb.expertBytesPerParam(), b.Expert)
			}
			t.Logf("dense %.6g -> %.6g B, LM head 2 -> %.6g B", fb.denseBytes(), b.Dense, b.LMHead)

			// Step and memory agree: the bytes the built step model
			// streams per weight are those of the memory model's own
			// report (memory.Estimate's weight terms, what check prints).
			sm := NewStepModel(s)
			rule := map[string]float64{}
			for _, w := range memory.Estimate(in).Weights {
				rule[w.Component] = w.BytesPerParam
			}
			p := m.ParamCounts()
			if m.IsMoE() {
				if got := sm.expertBytes / p.ExpertPerLayerEach; !perfNear(got, rule[memory.CompRouted], 1e-12) {
					t.Errorf("step streams %.6g B per expert weight, memory stores %.6g", got, rule[memory.CompRouted])
				}
			}
			var memBytes float64
			for _, d := range denseParts(m, float64(in.Layout.TP)) {
				if d.params > 0 {
					memBytes += d.params * rule[d.comp]
				}
			}
			memBytes += lmHeadParams(p) / float64(in.Layout.TP) * rule[memory.CompLMHead]
			stepBytes := sm.denseBytesGPU - p.HyperConnections*4
			if !perfNear(stepBytes, memBytes, 1e-9) {
				t.Errorf("step streams %.6g B of dense weights and LM head per GPU, the memory model stores them in %.6g", stepBytes, memBytes)
			}
		})
	}
}

// TestStorageBytesSwitch: with UseStorageRuleBytes off the step model
// streams the coarse bytes again (DeepSeek-V4-Flash's experts at FP8's).
func TestStorageBytesSwitch(t *testing.T) {
	was := UseStorageRuleBytes
	defer func() { UseStorageRuleBytes = was }()
	UseStorageRuleBytes = false
	in := testinput.Quick(t, resolve.QuickOptions{Model: "deepseek-v4-flash", GPU: "h100-sxm", TP: 8, EP: true, MaxModelLen: 8192})
	s := SetupFromInput(in)
	if s.Storage != (StorageBytes{}) || s.expertBytesPerParam() != hbFP8Block {
		t.Errorf("switch off: storage %+v, experts at %.6g B", s.Storage, s.expertBytesPerParam())
	}
}

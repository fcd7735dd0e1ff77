package catalog

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// TestMiniMaxM3Params counts MiniMaxAI/MiniMax-M3's language model
// (testdata/hf/minimax-m3.verbatim.json) by hand, module by module as
// vLLM's vllm/models/minimax_m3/nvidia/model.py (vllm-project/vllm@0443308a)
// builds it: hidden 6,144, 64 query and 4 KV heads of 128, 60 layers, the
// first 3 dense (dense_intermediate_size 12,288), 57 with 128 experts of
// intermediate_size 3,072 plus one shared expert, 57 sparse layers with an
// indexer of 4 index_q heads and one index_k head of 128.
//
// vLLM's recipe (vllm-project/recipes@8959cf6 models/MiniMaxAI/
// MiniMax-M3.yaml) states "427.04B total from safetensors metadata (BF16:
// 426.99B + F32: 46.3M)" for the published checkpoint, which also holds
// the vision tower and projectors this text config does not describe
// (nvidia/MiniMax-M3-NVFP4's vision_config: 32 CLIP blocks of 1,280, about
// 0.63 B by visionNote's rule): the language model is 0.20% below it.
func TestMiniMaxM3Params(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/minimax-m3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h, vocab = 6144, 200064
	attn := h*64*128 + 2*h*4*128 + 64*128*h + 2*128 // q, k, v, o, q_norm and k_norm of head_dim
	idx := h*4*128 + h*128 + 2*128                  // index_q, index_k, index_q_norm and index_k_norm
	expert := 3 * h * 3072
	want := map[string]float64{
		"embedding":       vocab * h,                  // 1,229,193,216
		"lm_head":         vocab * h,                  // untied
		"attention":       60 * float64(attn),         // 60 × 106,955,008 = 6,417,300,480
		"indexer":         57 * float64(idx),          // 57 × 3,932,416 = 224,147,712
		"dense_mlp":       3 * 3 * h * 12288,          // 679,477,248
		"routed_experts":  57 * 128 * float64(expert), // 57 × 128 × 56,623,104 = 413,122,166,784
		"shared_experts":  57 * float64(expert),       // 3,227,516,928
		"router":          57 * (h*128 + 128),         // fp32 gate and e_score_correction_bias
		"norms":           (60*2 + 1) * h,             // input and post-attention norms, final norm
		"total_expected":  426174572928,
		"attention_layer": float64(attn),
	}
	p := m.ParamCounts()
	for k, got := range map[string]float64{"embedding": p.Embedding, "lm_head": p.LMHead, "attention": p.Attention, "indexer": p.Indexer,
		"dense_mlp": p.DenseMLP, "routed_experts": p.RoutedExperts, "shared_experts": p.SharedExperts, "router": p.Router, "norms": p.Norms,
		"total_expected": p.Total, "attention_layer": p.AttentionPerLayer} {
		if got != want[k] {
			t.Errorf("%s = %.0f, want %.0f", k, got, want[k])
		}
	}
	var sum float64
	for k, v := range want {
		if k != "total_expected" && k != "attention_layer" {
			sum += v
		}
	}
	if sum != p.Total {
		t.Errorf("components by hand sum to %.0f, ParamCounts total %.0f", sum, p.Total)
	}
	// The recipe's safetensors total, vision tower included.
	if d := p.Total/427.04e9 - 1; d > 0 || d < -0.005 {
		t.Errorf("language model %.3f B vs the checkpoint's 427.04 B: %+.2f%%, want within 0.5%% below", p.Total/1e9, 100*d)
	}
	// Active: 4 routed + 1 shared expert per MoE layer; the recipe's own
	// sum "57 MoE layers × (4 routed + 1 shared) × 56.6M + 60-layer attn
	// 6.6B + 3 dense FFN 0.68B + embeddings 2.46B ≈ 25.9B" (embedding and
	// LM head both in its 2.46 B).
	if a := p.Active(m); math.Abs(a/25.9e9-1) > 0.005 {
		t.Errorf("active %.3f B, recipe ≈ 25.9 B", a/1e9)
	}
	if !m.RouterFP32 || !m.ScoreCorrectionBias || !m.QKNorm || m.QKNormAllHeads || m.PartialRotaryFactor != 0.5 {
		t.Errorf("router fp32 %v, correction bias %v, qk norm %v (all heads %v), partial rotary %g", m.RouterFP32, m.ScoreCorrectionBias, m.QKNorm, m.QKNormAllHeads, m.PartialRotaryFactor)
	}
}

// TestMiniMaxM3Layers: sparse_attention_freq marks layers 3–59, whose
// queries attend at most sparse_topk_blocks × sparse_block_size = 16 × 128
// = 2,048 keys (the forced local block among the 16); layers 0–2 are full
// GQA attention with dense MLPs.
func TestMiniMaxM3Layers(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/minimax-m3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if n := m.MiniMaxM3SparseLayers(0, m.NumLayers); n != 57 {
		t.Errorf("sparse layers %d, want 57", n)
	}
	for i, want := range map[int]int{0: 0, 2: 0, 3: 2048, 59: 2048} {
		if got := m.AttendedWindow(i); got != want {
			t.Errorf("layer %d attends %d, want %d", i, got, want)
		}
	}
	if m.MoELayerCount() != 57 || m.IsMoELayer(2) || !m.IsMoELayer(3) || m.IntermediateSize != 12288 || m.MoEIntermediateSize != 3072 {
		t.Errorf("MoE layers %d, dense MLP %d, experts %d", m.MoELayerCount(), m.IntermediateSize, m.MoEIntermediateSize)
	}
	if got := m.MiniMaxM3IndexKeyBytes(2); got != 256 {
		t.Errorf("index key %d B per token and sparse layer, want 128 × 2", got)
	}
	for tp, want := range map[int]float64{1: 6144*4*128 + 6144*128 + 256, 4: 6144*128 + 6144*128 + 256, 8: 6144*128 + 6144*128 + 256} {
		if got := m.MiniMaxM3IndexerPerRank(tp); got != want {
			t.Errorf("TP %d: indexer per rank %.0f, want %.0f", tp, got, want)
		}
	}
}

// TestMiniMaxM3NVFP4: nvidia/MiniMax-M3-NVFP4 is the wrapper minimax_m3_vl
// whose text_config states no model_type; vLLM's
// MiniMaxM3SparseForConditionalGeneration builds MiniMaxM3SparseForCausalLM
// from it, so it is read as minimax_m3. Its ModelOpt MIXED_PRECISION map
// (testdata/hf/minimax-m3-nvfp4.reconstructed.json, rebuilt from the trimmed
// copy by one rule whose full form gives the published 22,422 entries):
// routed experts NVFP4 (0.5 B + one E4M3 scale per 16 = 0.5625 B), q/k/v/o,
// index_q/index_k, shared experts and the dense MLPs MXFP8 (1 B + one E8M0
// scale per 32 = 1.03125 B); router, embeddings and LM head excluded.
func TestMiniMaxM3NVFP4(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/minimax-m3-nvfp4.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	if m.ModelType != "minimax_m3" || m.Wrapper != "minimax_m3_vl" || !m.TrustRemoteCode {
		t.Errorf("model_type %q wrapper %q trust %v", m.ModelType, m.Wrapper, m.TrustRemoteCode)
	}
	if len(m.Notes) == 0 || !strings.Contains(m.Notes[0], "text_config states no model_type") {
		t.Errorf("notes %q", m.Notes)
	}
	// The vision tower by hand (vision_config: 32 CLIP blocks of 1,280,
	// MLP 5,120, patch 14, 3 channels, temporal patch 2, spatial merge 2;
	// projector_hidden_size 6,144, biases on): Conv3d 3 × 2 × 14² × 1,280 =
	// 1,505,280; pre-norm 2,560; a block 4 × 1,280 + (3 × 1,280² + 3,840) +
	// (1,280² + 1,280) + 2 × 1,280 × 5,120 + 5,120 + 1,280 = 19,677,440;
	// projector 1,280 × 6,144 + 6,144 + 6,144² + 6,144 = 45,625,344; patch
	// merger 24,576 × 6,144 + 6,144 + 6,144² + 6,144 = 188,755,968.
	const vision = 1505280 + 2560 + 32*19677440 + 45625344 + 188755968 // 865,567,232
	e := m.Encoder
	if e == nil || e.Params != vision || e.Kind != "minimax_vl_vision" {
		t.Fatalf("encoder %+v, want %d parameters", e, vision)
	}
	// Sharded: the blocks' qkv (weights and biases), out_proj and fc2
	// weights, fc1 (weights and biases); the projectors' linear_1 (weights
	// and biases) and linear_2 weights.
	shard := 32.0*(3*1280*1280+3*1280+1280*1280+1280*5120+5120+5120*1280) + 1280*6144 + 6144 + 6144*6144 + 24576*6144 + 6144 + 6144*6144
	if e.ShardedParams != shard {
		t.Errorf("sharded %.0f, want %.0f", e.ShardedParams, shard)
	}
	// With the language model: the recipe's 427.04 B, the checkpoint's
	// safetensors total (vllm-project/recipes@8959cf6 MiniMax-M3.yaml).
	if tot := m.ParamCounts().Total + e.Params; tot != 427040140160 || math.Abs(tot/427.04e9-1) > 0.5e-5 {
		t.Errorf("language model + vision %.0f, recipe 427.04B", tot)
	}
	sh := m.Quant.Shares
	if sh == nil {
		t.Fatal("no shares")
	}
	for part, want := range map[string]float64{"routed": 0.5625, "shared": 1.03125, "dense_mlp": 1.03125} {
		if got := sh.Mixed[part].BytesPerParam; got != want {
			t.Errorf("%s %g B per parameter, want %g", part, got, want)
		}
	}
	// Attention and indexer: the projections MXFP8, the norms (256 of
	// 106,955,008 and of 3,932,416 per layer) in BF16.
	for part, norms := range map[string]float64{"attention": 256.0 / 106955008, "indexer": 256.0 / 3932416} {
		want := (1-norms)*1.03125 + norms*2
		if got := sh.Mixed[part].BytesPerParam; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s %g B per parameter, want %g", part, got, want)
		}
	}
	// The rule: the full map has 22,422 entries, 21,888 NVFP4 and 534 MXFP8.
	var raw struct {
		Q struct {
			Layers map[string]struct {
				Algo string `json:"quant_algo"`
			} `json:"quantized_layers"`
		} `json:"quantization_config"`
	}
	b, err := os.ReadFile("testdata/hf/minimax-m3-nvfp4.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	fp4, mx := 0, 0
	for k, v := range raw.Q.Layers {
		switch {
		case v.Algo == "NVFP4" && strings.Contains(k, ".experts.0.w"):
			fp4 += 128 // the other 127 experts' entries, left out, alike
		case v.Algo == "MXFP8":
			mx++
		default:
			t.Errorf("unexpected entry %s %s", k, v.Algo)
		}
	}
	if fp4 != 21888 || mx != 534 {
		t.Errorf("the rule gives %d NVFP4 and %d MXFP8 entries, the published file 21,888 and 534", fp4, mx)
	}
	// The trimmed copy lists layers 0 and 3 only: read as written, every
	// other layer is unquantized (vLLM would build it in BF16), which is
	// why the scripts use the reconstruction.
	tr, err := LoadHFConfig("testdata/hf/minimax-m3-nvfp4.trimmed.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Quant.Shares.Routed; math.Abs(got-1.0/57) > 1e-12 {
		t.Errorf("trimmed copy: routed share %g, want 1/57", got)
	}
}

// TestMiniMaxM3Refusals: a minimax_m3 config outside what vLLM's model
// builds is refused with the field named.
func TestMiniMaxM3Refusals(t *testing.T) {
	base, err := os.ReadFile("testdata/hf/minimax-m3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		edit func(map[string]any)
		want string
	}{
		{func(c map[string]any) { c["sparse_attention_config"].(map[string]any)["sparse_block_size"] = 64 }, "sparse_block_size 64"},
		{func(c map[string]any) { c["sparse_attention_config"].(map[string]any)["sparse_num_index_heads"] = 8 }, "sparse_num_index_heads 8"},
		{func(c map[string]any) { c["hidden_act"] = "silu" }, `hidden_act "silu"`},
		{func(c map[string]any) { delete(c, "sparse_attention_config") }, "sparse_attention_config missing"},
		{func(c map[string]any) { c["qk_norm_type"] = "per_layer" }, `qk_norm_type "per_layer"`},
	} {
		var c map[string]any
		if err := json.Unmarshal(base, &c); err != nil {
			t.Fatal(err)
		}
		tt.edit(c)
		b, _ := json.Marshal(c)
		m, err := ParseHFConfig(b)
		if err != nil {
			t.Fatal(err)
		}
		err = m.Modelled()
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "MiniMax-M3 as published (minimax_m3)") {
			t.Errorf("%s: %v", tt.want, err)
		}
	}
}

package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
)

// MiniMax-M3 (model_type minimax_m3; nvidia/MiniMax-M3-NVFP4 as the wrapper
// minimax_m3_vl whose text_config states no model_type) as vLLM builds it,
// read in vllm-project/vllm at 0443308aa3e9e621c911ac891cac4f3170a83af5,
// vllm/models/minimax_m3/nvidia/model.py (MiniMaxM3DecoderLayer,
// MiniMaxM3Attention, MiniMaxM3SparseAttention, MiniMaxM3MoE, MiniMaxM3MLP,
// MiniMaxM3SparseForConditionalGeneration), and at 0484480bc73081c4a5133b3c
// b53018323fce632d, vllm/models/minimax_m3/common/indexer.py
// (MiniMaxM3IndexerCache):
//
//   - Every layer: GQA attention (qkv_proj, o_proj, no biases), per-head
//     q_norm and k_norm of head_dim (qk_norm_type per_head, GemmaRMSNorm),
//     partial RoPE; input and post-attention norms.
//   - The layers sparse_attention_config.sparse_attention_freq marks
//     (57 of 60) are MiniMaxM3SparseAttention: the fused qkv_proj
//     (MinimaxM3QKVParallelLinearWithIndexer) also emits index_q of
//     sparse_num_index_heads × sparse_index_dim, its heads equal to the KV
//     heads and sharded like them (num_idx_heads = num_kv_heads per rank,
//     replicated when TP exceeds them), and index_k, one sparse_index_dim
//     head on every rank; index_q_norm and index_k_norm of sparse_index_dim.
//     sparse_disable_index_value is set on every sparse layer, so no
//     index_v / index_o projections exist.
//   - Each sparse layer registers two caches: its GQA K/V (FullAttentionSpec
//     of the rank's KV heads × head_dim, K and V) and the indexer's side
//     cache, one sparse_index_dim key per token (MLAAttentionSpec,
//     num_kv_heads 1, bf16 unless --attention-config indexer_kv_dtype is
//     fp8). Both take cache_config.block_size; the sparse backends accept
//     only 128-token kernel blocks (get_supported_kernel_block_sizes, "one
//     sparse block per KV page"), and vLLM's recipe sets --block-size 128
//     (vllm-project/recipes@8959cf6 models/MiniMaxAI/MiniMax-M3.yaml).
//   - The indexer scores every 128-token block of index keys (max over the
//     block) and keeps sparse_topk_blocks blocks per query and index head,
//     the init and local blocks forced among them (common/ops/index_topk.py,
//     _topk_index_kernel at 030f10ea: topk entries in all), so a query
//     attends at most sparse_topk_blocks × sparse_block_size keys.
//   - MLP: layers moe_layer_freq marks 0 (the first three) a dense SwiGLU
//     MLP of dense_intermediate_size; the others MiniMaxM3MoE: a float32
//     GateLinear router, a float32 e_score_correction_bias with
//     use_routing_bias, num_local_experts experts of intermediate_size
//     (FusedMoE's intermediate_size is config.intermediate_size) and
//     n_shared_experts × intermediate_size shared experts.
//   - MTP weights ("mtp.") are skipped on load.

// MiniMaxM3 is MiniMax-M3's block-sparse attention; nil for every other model.
type MiniMaxM3 struct {
	// SparseLayers marks the layers sparse_attention_freq sets.
	SparseLayers []bool `json:"sparse_layers"`
	// IndexHeads is sparse_num_index_heads, IndexDim sparse_index_dim.
	IndexHeads int `json:"index_heads"`
	IndexDim   int `json:"index_dim"`
	// TopKBlocks blocks of BlockSize tokens per query, InitBlocks and
	// LocalBlocks of them forced.
	TopKBlocks  int `json:"topk_blocks"`
	BlockSize   int `json:"block_size"`
	InitBlocks  int `json:"init_blocks"`
	LocalBlocks int `json:"local_blocks"`
	// DenseIntermediate is dense_intermediate_size (the dense layers' MLP).
	DenseIntermediate int `json:"dense_intermediate_size"`

	problem string
}

// minimaxM3BlockTokens is the only kernel block size vLLM's MiniMax-M3
// sparse and indexer backends accept (MiniMaxM3SparseBackend and
// MiniMaxM3IndexerBackend.get_supported_kernel_block_sizes: [128]).
const minimaxM3BlockTokens = 128

// minimaxM3Wrapper is the multimodal wrapper of MiniMax-M3 whose
// text_config states no model_type: vLLM's
// MiniMaxM3SparseForConditionalGeneration builds its language model as
// MiniMaxM3SparseForCausalLM from text_config.
const minimaxM3Wrapper = "minimax_m3_vl"

// minimaxM3Text reads a minimax_m3_vl wrapper's text_config without a
// model_type as minimax_m3.
func (c *hfConfig) minimaxM3Text(w wrapper) {
	if c.ModelType == "" && w.wrapped && w.modelType == minimaxM3Wrapper {
		c.ModelType = "minimax_m3"
	}
}

type minimaxM3Fields struct {
	HiddenAct             string                     `json:"hidden_act"`
	DenseIntermediateSize int                        `json:"dense_intermediate_size"`
	AttentionOutputGate   *bool                      `json:"attention_output_gate"`
	Sparse                map[string]json.RawMessage `json:"sparse_attention_config"`
}

func (c *hfConfig) fillMiniMaxM3(m *Model, text map[string]json.RawMessage) {
	if c.ModelType != "minimax_m3" {
		return
	}
	var f minimaxM3Fields
	if b, err := json.Marshal(text); err == nil {
		_ = json.Unmarshal(b, &f)
	}
	g := &MiniMaxM3{DenseIntermediate: max(f.DenseIntermediateSize, 0)}
	m.MiniMaxM3 = g
	var bad []string
	if f.HiddenAct != "swigluoai" {
		bad = append(bad, fmt.Sprintf("hidden_act %q (MiniMaxM3MLP raises for any but swigluoai)", f.HiddenAct))
	}
	if c.QKNormType != "per_head" {
		bad = append(bad, fmt.Sprintf("qk_norm_type %q (vLLM's MiniMax-M3 builds per-head q/k norms only)", c.QKNormType))
	}
	if f.AttentionOutputGate != nil && *f.AttentionOutputGate {
		bad = append(bad, "attention_output_gate true (vLLM's MiniMax-M3 builds no output gate)")
	}
	// Per-head q/k norms of head_dim; the router in float32 with its
	// correction bias; experts and shared experts of intermediate_size.
	m.QKNorm, m.QKNormAllHeads = true, false
	m.RouterFP32 = true
	m.ScoreCorrectionBias = c.UseRoutingBias != nil && *c.UseRoutingBias
	if m.NumExperts > 0 {
		m.MoEIntermediateSize = firstPositive(c.IntermediateSize.n, m.MoEIntermediateSize)
	}
	m.SharedExpertIntermediateSize = 0
	if g.DenseIntermediate > 0 {
		m.IntermediateSize = g.DenseIntermediate
	} else if m.FirstKDenseReplace > 0 || len(m.MoELayers) > 0 {
		bad = append(bad, "dense_intermediate_size missing (the dense layers' MLP width)")
	}
	s := f.Sparse
	if s == nil {
		bad = append(bad, "sparse_attention_config missing")
		g.problem = strings.Join(bad, ", ")
		return
	}
	g.IndexHeads, g.IndexDim = intKey(s, "sparse_num_index_heads"), intKey(s, "sparse_index_dim")
	g.TopKBlocks, g.BlockSize = intKey(s, "sparse_topk_blocks"), intKey(s, "sparse_block_size")
	g.InitBlocks, g.LocalBlocks = intKey(s, "sparse_init_block"), intKey(s, "sparse_local_block")
	var freq, noValue []int
	_ = json.Unmarshal(s["sparse_attention_freq"], &freq)
	_ = json.Unmarshal(s["sparse_disable_index_value"], &noValue)
	if len(freq) != m.NumLayers {
		bad = append(bad, fmt.Sprintf("sparse_attention_freq of %d entries for %d layers", len(freq), m.NumLayers))
	}
	for i := 0; i < m.NumLayers; i++ {
		sp := i < len(freq) && freq[i] != 0
		g.SparseLayers = append(g.SparseLayers, sp)
		if sp && (i >= len(noValue) || noValue[i] == 0) {
			bad = append(bad, fmt.Sprintf("sparse layer %d without sparse_disable_index_value (vLLM never builds index_v/index_o)", i))
			break
		}
	}
	if g.IndexHeads != m.NumKVHeads {
		bad = append(bad, fmt.Sprintf("sparse_num_index_heads %d ≠ num_key_value_heads %d (vLLM shards index_q like the KV heads)", g.IndexHeads, m.NumKVHeads))
	}
	if g.IndexDim <= 0 || g.TopKBlocks <= 0 {
		bad = append(bad, "sparse_index_dim and sparse_topk_blocks must be positive")
	}
	if g.BlockSize != minimaxM3BlockTokens {
		bad = append(bad, fmt.Sprintf("sparse_block_size %d (vLLM's sparse kernels take %d-token blocks only)", g.BlockSize, minimaxM3BlockTokens))
	}
	if t, _ := rawString(s["sparse_score_type"]); t != "" && t != "max" {
		bad = append(bad, fmt.Sprintf("sparse_score_type %q (vLLM implements max)", t))
	}
	g.problem = strings.Join(bad, ", ")
}

func rawString(r json.RawMessage) (string, bool) {
	var s string
	err := json.Unmarshal(r, &s)
	return s, err == nil
}

// minimaxM3Problem is what of a minimax_m3 config vlaunch does not size.
func (m *Model) minimaxM3Problem() string {
	if m.MiniMaxM3 == nil || m.MiniMaxM3.problem == "" {
		return ""
	}
	return "MiniMax-M3 config outside what vLLM's model builds: " + m.MiniMaxM3.problem
}

// IsMiniMaxM3Sparse reports whether layer i runs MiniMax-M3's block-sparse
// attention with its indexer.
func (m *Model) IsMiniMaxM3Sparse(i int) bool {
	g := m.MiniMaxM3
	return g != nil && i >= 0 && i < len(g.SparseLayers) && g.SparseLayers[i]
}

// MiniMaxM3SparseLayers counts the sparse layers in [first, end).
func (m *Model) MiniMaxM3SparseLayers(first, end int) int {
	n := 0
	for i := first; i < end; i++ {
		if m.IsMiniMaxM3Sparse(i) {
			n++
		}
	}
	return n
}

// AttendedTokens is the most keys one query of a sparse layer attends:
// sparse_topk_blocks blocks of sparse_block_size (2,048 for MiniMax-M3).
func (g *MiniMaxM3) AttendedTokens() int { return g.TopKBlocks * g.BlockSize }

// minimaxM3IndexerParams is one sparse layer's indexer with idxHeads
// index_q heads: index_q_proj (hidden × heads × dim), index_k_proj (hidden
// × dim) and the two norms (dim each).
func (m *Model) minimaxM3IndexerParams(idxHeads float64) float64 {
	g := m.MiniMaxM3
	h, d := float64(m.HiddenSize), float64(g.IndexDim)
	return h*idxHeads*d + h*d + 2*d
}

// MiniMaxM3IndexerPerRank is one sparse layer's indexer on one of tp
// ranks: index_q of the rank's index heads (max(1, heads / tp), as the KV
// heads), index_k and the norms whole.
func (m *Model) MiniMaxM3IndexerPerRank(tp int) float64 {
	if m.MiniMaxM3 == nil {
		return 0
	}
	return m.minimaxM3IndexerParams(float64(max(1, m.MiniMaxM3.IndexHeads/max(tp, 1))))
}

// MiniMaxM3IndexKeyBytes is one token's indexer key in one sparse layer's
// side cache: sparse_index_dim values of elem bytes (2 for bf16, 1 for
// --attention-config indexer_kv_dtype fp8), one head on every TP rank.
func (m *Model) MiniMaxM3IndexKeyBytes(elem int) int {
	if m.MiniMaxM3 == nil {
		return 0
	}
	return m.MiniMaxM3.IndexDim * elem
}

// minimaxM3Modules are the indexer's linear modules of sparse layer i, in
// the checkpoint's naming (self_attn.index_q_proj / index_k_proj, which
// vLLM folds into qkv_proj).
func (m *Model) minimaxM3Modules(i int) []quantModule {
	if !m.IsMiniMaxM3Sparse(i) {
		return nil
	}
	g := m.MiniMaxM3
	h, d := float64(m.HiddenSize), float64(g.IndexDim)
	return []quantModule{
		{[]string{"self_attn.index_q_proj"}, h * float64(g.IndexHeads) * d, "indexer"},
		{[]string{"self_attn.index_k_proj"}, h * d, "indexer"},
	}
}

// minimaxM3Encoder counts the vision tower nvidia/MiniMax-M3-NVFP4's
// vision_config describes as vLLM builds it: MiniMaxM3SparseForConditional-
// Generation builds MiniMaxVLVisionModel (vllm/models/minimax_m3/common/
// vision_tower.py, read at vllm-project/vllm@00b7847c) whatever the
// request's modalities, unless --language-model-only:
//
//   - MiniMaxVLPatchEmbed: a Conv3dLayer, num_channels × temporal_patch_size
//     × patch_size² → hidden_size, no bias; pre_layrnorm (LayerNorm, 2h); no
//     post layernorm (require_post_norm False: "The released checkpoint ships
//     no post_layernorm weights").
//   - num_hidden_layers CLIP blocks (vitBlock): layer_norm1/2, qkv_proj
//     (QKVParallelLinear, bias) and out_proj (RowParallelLinear, bias), fc1
//     (ColumnParallelLinear, bias) and fc2 (RowParallelLinear, bias); no
//     position embedding (3-D RoPE).
//   - MiniMaxVLMultiModalProjector: linear_1 hidden → projector_hidden_size,
//     linear_2 → the text hidden size (biases: multimodal_projector_bias);
//     MiniMaxVLPatchMerger: linear_1 text hidden × spatial_merge_size² →
//     projector_hidden_size, linear_2 → text hidden (patch_merge_bias,
//     true when absent). Column-parallel then row-parallel.
//
// The parallel linears split over TP (their weights, and the column-parallel
// biases); the convolution, norms and row-parallel biases are whole on
// every GPU. ModelOpt's exclude_modules keep all of it in BF16 (vision_tower,
// multi_modal_projector, patch_merge_mlp).
func minimaxM3Encoder(v, top map[string]json.RawMessage, textHidden int) *Encoder {
	s, ok := sizes(v, map[string]int{"hidden_size": 0, "intermediate_size": 0, "num_hidden_layers": 0,
		"num_attention_heads": 0, "patch_size": 0, "num_channels": 3})
	if !ok || int(s["hidden_size"])%int(s["num_attention_heads"]) != 0 {
		return nil
	}
	var comp map[string]json.RawMessage
	_ = json.Unmarshal(v["img_token_compression_config"], &comp)
	temporal := float64(firstPositive(intKey(comp, "temporal_patch_size"), 2))
	merge := float64(firstPositive(intKey(comp, "spatial_merge_size"), 2))
	h, i, n, th := s["hidden_size"], s["intermediate_size"], s["num_hidden_layers"], float64(textHidden)
	mid := float64(firstPositive(intKey(top, "projector_hidden_size"), textHidden))
	bias := func(key string) float64 {
		var b bool
		if json.Unmarshal(top[key], &b) == nil && !b {
			return 0
		}
		return 1
	}
	pb, mb := bias("multimodal_projector_bias"), bias("patch_merge_bias")
	patch := s["num_channels"] * temporal * s["patch_size"] * s["patch_size"] * h
	pre := 2 * h
	block, shard := vitBlock(h, i)
	proj1, proj2 := h*mid+pb*mid, mid*th+pb*th
	merge1, merge2 := th*merge*merge*mid+mb*mid, mid*th+mb*th
	e := &Encoder{Kind: "minimax_vl_vision", Params: patch + pre + n*block + proj1 + proj2 + merge1 + merge2,
		ShardedParams: n*shard + proj1 + mid*th + merge1 + mid*th,
		Rule: "MiniMaxVLVisionModel's CLIP blocks, multi_modal_projector and patch_merge_mlp split over TP (QKVParallelLinear, ColumnParallelLinear, RowParallelLinear in vLLM's " +
			"vllm/models/minimax_m3/common/vision_tower.py); the Conv3d patch embedding, norms and row-parallel biases whole on every GPU"}
	e.Derivation = fmt.Sprintf("patch embedding %.0f×%.0f×%.0f²×%.0f + pre-norm %.0f + %.0f blocks × %.0f + projector %.0f×%.0f + %.0f×%.0f (biases %.0f) + patch merger %.0f×%.0f + %.0f×%.0f (biases %.0f)",
		s["num_channels"], temporal, s["patch_size"], h, pre, n, block, h, mid, mid, th, pb*(mid+th), th*merge*merge, mid, mid, th, mb*(mid+th))
	return e
}

package catalog

import (
	"encoding/json"
	"fmt"
)

// Kimi-K3 (model_type kimi_k3, KimiK3ForConditionalGeneration) wraps a
// kimi_linear language model: Kimi Delta Attention (KDA) layers, a linear
// attention with a fixed state per sequence, mixed with MLA layers, under a
// latent MoE. vLLM builds it in vllm/models/kimi_k3/nvidia/model.py (read at
// vllm-project/vllm 006193b5; release not pinned: no vLLM release tag was
// read that ships it), kda.py (read at 055e47c2) and mla.py (at 01b867e8):
//
//   - linear_attn_config.kda_layers lists the KDA layers 1-based
//     (KimiLinearConfig.is_kda_layer: (layer_idx + 1) in kda_layers); every
//     other layer is MLA.
//   - KDA layer (KimiK3DeltaAttention, use_full_rank_gate): in_proj_qkvgfab
//     hidden → q, k, v, g (num_heads × head_dim each, split over TP), f_a
//     (head_dim, whole on every rank: the replicated shard) and beta
//     (num_heads, split); f_b_proj head_dim → num_heads × head_dim (column);
//     dt_bias (num_heads × head_dim, float32), A_log (num_heads, float32),
//     conv1d (3 × num_heads × head_dim × short_conv_kernel_size, float32),
//     o_norm (head_dim, whole), o_proj num_heads × head_dim → hidden (row).
//     in_proj's rows are padded per rank to a multiple of 16 (zeros; under
//     16 rows, not counted).
//   - Its state (MambaStateShapeCalculator.kda_state_shape and
//     kda_state_dtype, vllm/model_executor/layers/mamba/mamba_utils.py read
//     at 02d71083): conv (3 × num_heads × head_dim / TP, kernel − 1) in
//     mamba_cache_dtype (auto: the activation dtype) and the recurrent state
//     (num_heads / TP, head_dim, head_dim) in float32 — Gated DeltaNet's
//     shapes with as many key as value heads of one head_dim, which is how
//     vlaunch holds them (GDN) for the memory model's state pages.
//   - MLA layer (MultiHeadLatentAttention, NoPE): DeepSeek's q-LoRA MLA
//     (fused q_a + kv_a_proj_with_mqa, q_a_layernorm, q_b_proj, kv_a_layernorm,
//     kv_b_proj, o_proj) plus, with mla_use_output_gate, g_proj hidden →
//     num_heads × v_head_dim (ColumnParallelLinear). Its cache is MLA's:
//     kv_lora_rank + qk_rope_head_dim per token (head_size), replicated.
//   - MoE in layers ≥ first_k_dense_replace (KimiMoE): a GateLinear hidden →
//     num_experts and a float32 e_score_correction_bias; routed experts of
//     moe_intermediate_size at routed_expert_hidden_size (the latent:
//     routed_expert_down_proj hidden → latent, RMSNorm on the latent with
//     latent_moe_use_norm, routed_expert_up_proj latent → hidden, both
//     ReplicatedLinear, unquantized); shared experts one KimiMLP of
//     moe_intermediate_size × num_shared_experts. Layer 0: a KimiMLP of
//     intermediate_size.
//   - attn_res_block_size (attention residuals): per layer two RMSNorms
//     (self_attention_res_norm, mlp_res_norm) and two hidden → 1
//     ReplicatedLinear (self_attention_res_proj, mlp_res_proj); after the
//     last layer output_attn_res_norm and output_attn_res_proj.

// Kimi-Linear-48B (model_type kimi_linear at the top, KimiLinearForCausalLM)
// is the same hybrid with another KDA layer and plainer MLA and MoE layers,
// as vLLM's vllm/model_executor/models/kimi_linear.py (read at vllm-project/
// vllm 01d99586) and vllm/model_executor/layers/kda.py (at 01a7e5d9) build
// it: KimiDeltaAttention without use_full_rank_gate (kdaParams lists its
// modules; its state is Kimi-K3's: MambaStateShapeCalculator.kda_state_shape,
// three conv states and a float32 recurrent one), KimiMLAAttention (q_proj
// without q-LoRA, kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj;
// NoPE, asserted; no output gate), KimiMoE (an unquantized gate with its
// e_score_correction_bias, experts of moe_intermediate_size, a shared
// KimiMLP; silu only), a dense KimiMLP below first_k_dense_replace.

// KimiLinear is a kimi_linear language model's KDA layer and the extras of
// its MLA and MoE layers; nil for every other model.
type KimiLinear struct {
	NumHeads   int `json:"num_heads"`
	HeadDim    int `json:"head_dim"`
	ConvKernel int `json:"short_conv_kernel_size"`
	// KDALayers counts the layers kda_layers names within the model.
	KDALayers int `json:"kda_layers"`
	// FullRankGate: use_full_rank_gate (Kimi-K3's g projection in
	// in_proj_qkvgfab); false (absent) is Kimi-Linear's low-rank gate
	// (g_a_proj / g_b_proj beside separate q/k/v projections).
	FullRankGate bool `json:"use_full_rank_gate"`
	// OutputGate: mla_use_output_gate (the MLA layers' g_proj).
	OutputGate bool `json:"mla_use_output_gate,omitempty"`
	// AttnRes: attn_res_block_size is set (attention residuals).
	AttnRes bool `json:"attn_res,omitempty"`
	// LatentNorm: latent_moe_use_norm (an RMSNorm on the expert latent).
	LatentNorm bool `json:"latent_moe_use_norm,omitempty"`
	// Problem says why the config cannot be sized ("" when it can).
	Problem string `json:"problem,omitempty"`
}

// kimiLinearFields are the text_config keys of kimi_linear vLLM reads that
// the common fields do not cover.
type kimiLinearFields struct {
	LinearAttnConfig *struct {
		KDALayers       []int `json:"kda_layers"`
		NumHeads        int   `json:"num_heads"`
		HeadDim         int   `json:"head_dim"`
		ShortConvKernel int   `json:"short_conv_kernel_size"`
		UseFullRankGate *bool `json:"use_full_rank_gate"`
	} `json:"linear_attn_config"`
	NumExpertsPerToken     int    `json:"num_experts_per_token"`
	NumSharedExperts       int    `json:"num_shared_experts"`
	RoutedExpertHiddenSize int    `json:"routed_expert_hidden_size"`
	LatentMoEUseNorm       *bool  `json:"latent_moe_use_norm"`
	MLAUseOutputGate       *bool  `json:"mla_use_output_gate"`
	MLAUseNope             *bool  `json:"mla_use_nope"`
	AttnResBlockSize       *int   `json:"attn_res_block_size"`
	HiddenAct              string `json:"hidden_act"`
}

// fillKimiLinear reads a kimi_linear language model (text holds its keys).
func (c *hfConfig) fillKimiLinear(m *Model, text map[string]json.RawMessage) {
	if c.ModelType != "kimi_linear" {
		return
	}
	var f kimiLinearFields
	if b, err := json.Marshal(text); err == nil {
		_ = json.Unmarshal(b, &f)
	}
	k := &KimiLinear{}
	m.KimiLinear = k
	la := f.LinearAttnConfig
	if la == nil {
		k.Problem = "linear_attn_config missing: the KDA layers and their heads are not stated"
		return
	}
	k.NumHeads, k.HeadDim, k.ConvKernel = la.NumHeads, la.HeadDim, la.ShortConvKernel
	k.FullRankGate = la.UseFullRankGate != nil && *la.UseFullRankGate
	k.OutputGate = f.MLAUseOutputGate != nil && *f.MLAUseOutputGate
	k.AttnRes = f.AttnResBlockSize != nil && *f.AttnResBlockSize > 0
	k.LatentNorm = f.LatentMoEUseNorm != nil && *f.LatentMoEUseNorm
	switch {
	case k.NumHeads <= 0 || k.HeadDim <= 0 || k.ConvKernel <= 0 || k.NumHeads >= 1<<14 || k.HeadDim >= 1<<14 || k.ConvKernel >= 64:
		k.Problem = "linear_attn_config: num_heads, head_dim and short_conv_kernel_size must be positive"
	case f.MLAUseNope == nil || !*f.MLAUseNope:
		k.Problem = "mla_use_nope false: Kimi's MLA layers are NoPE-only in vLLM (Kimi-K3's MultiHeadLatentAttention and Kimi-Linear's KimiMLAAttention assert it)"
	case f.HiddenAct != "silu" && f.HiddenAct != "situ":
		k.Problem = fmt.Sprintf("hidden_act %q: vLLM's KimiMLP runs silu or situ only", f.HiddenAct)
	}
	if k.Problem != "" {
		return
	}
	m.LayerTypes = make([]string, m.NumLayers)
	for i := range m.LayerTypes {
		m.LayerTypes[i] = "full_attention"
	}
	for _, n := range la.KDALayers {
		if n < 1 || n > m.NumLayers {
			k.Problem = fmt.Sprintf("linear_attn_config.kda_layers names layer %d of %d (1-based)", n, m.NumLayers)
			continue
		}
		if m.LayerTypes[n-1] != LayerLinearAttention {
			m.LayerTypes[n-1] = LayerLinearAttention
			k.KDALayers++
		}
	}
	// The state: Gated DeltaNet's shapes with key and value heads alike,
	// the recurrent state in float32 (kda_state_dtype).
	m.GDN = &GatedDeltaNet{NumKeyHeads: k.NumHeads, NumValueHeads: k.NumHeads, KeyHeadDim: k.HeadDim,
		ValueHeadDim: k.HeadDim, ConvKernel: k.ConvKernel, SSMDType: "fp32"}
	if m.IsMoE() {
		// KimiMoE always builds gate.e_score_correction_bias (num_experts),
		// topk_method or not: Kimi-Linear's config names none.
		m.ScoreCorrectionBias = true
		m.ExpertsPerToken = firstPositive(m.ExpertsPerToken, f.NumExpertsPerToken)
		m.NumSharedExperts = max(f.NumSharedExperts, 0)
		if f.RoutedExpertHiddenSize > 0 && f.RoutedExpertHiddenSize <= m.HiddenSize {
			m.MoELatentSize = f.RoutedExpertHiddenSize
		}
	}
}

// LinearAttentionName names a hybrid's linear-attention layers for
// reports: Kimi Delta Attention for Kimi-K3, Gated DeltaNet otherwise.
func (m *Model) LinearAttentionName() string {
	if m.KimiLinear != nil {
		return "Kimi Delta Attention (KDA)"
	}
	return "Gated DeltaNet"
}

// kdaParams counts one KDA layer on one of tp ranks (tp 1: the whole
// layer), module by module as vLLM builds it (the float32 dt_bias, A_log
// and conv1d counted as parameters like the rest): Kimi-K3's
// KimiK3DeltaAttention (use_full_rank_gate: g is a full projection inside
// in_proj_qkvgfab) or Kimi-Linear's KimiDeltaAttention (the low-rank gate:
// g_a_proj and f_a_proj hidden → head_dim, ReplicatedLinear, whole on every
// rank; g_b_proj and f_b_proj head_dim → P, ColumnParallelLinear; q_proj,
// k_proj, v_proj hidden → P, b_proj hidden → num_heads, each column-split;
// q_conv1d, k_conv1d, v_conv1d P × kernel in float32; dt_bias P and A_log
// num_heads in float32, split; o_norm head_dim whole; o_proj P → hidden,
// row-split — vllm/model_executor/layers/kda.py read at vllm-project/vllm
// 01a7e5d9, whose shapes Kimi-Linear-48B's checkpoint tensors repeat).
func (m *Model) kdaParams(tp int) float64 {
	k := m.KimiLinear
	t := float64(max(tp, 1))
	h, d, nh := float64(m.HiddenSize), float64(k.HeadDim), float64(k.NumHeads)
	p := nh * d
	conv := 3 * p * float64(k.ConvKernel)
	if !k.FullRankGate {
		split := 3*h*p + 2*d*p + p + h*nh + conv + nh + p*h
		return split/t + 2*h*d + d // f_a, g_a (replicated) and o_norm whole
	}
	split := h*(4*p+nh) + d*p + p + conv + nh + p*h
	return split/t + h*d + d // f_a (replicated shard) and o_norm whole
}

// kimiExtraNorms are the vectors beyond the layers' two RMSNorms: the
// attention-residual norms and projections (4 × hidden a layer, 2 ×
// hidden after the last) and the expert latent's RMSNorm per MoE layer.
func (m *Model) kimiExtraNorms() float64 {
	k := m.KimiLinear
	if k == nil {
		return 0
	}
	var n float64
	h := float64(m.HiddenSize)
	if k.AttnRes {
		n += float64(m.NumLayers)*4*h + 2*h
	}
	if k.LatentNorm && m.MoELatentSize > 0 {
		n += float64(m.MoELayerCount()) * float64(m.MoELatentSize)
	}
	return n
}

// kimiMinIntermediatePerRank is KimiMoE's min_moe_intermediate_per_partition
// default (getattr(config, "min_moe_intermediate_per_partition", 256)).
const kimiMinIntermediatePerRank = 256

// KimiPaddedMoEIntermediate is the routed experts' width vLLM's KimiMoE
// builds at tensor parallelism tp: moe_intermediate_size, unless a TP
// rank's share would be under 256, then 256 × tp (the padding is zeroed;
// it follows the TP size whether or not experts are spread by EP). Kimi-K3
// only (0 for every other model): 3,072 is padded from TP 13 on.
func (m *Model) KimiPaddedMoEIntermediate(tp int) int {
	if m.KimiLinear == nil || !m.IsMoE() {
		return 0
	}
	if tp > 1 && m.MoEIntermediateSize/tp < kimiMinIntermediatePerRank {
		return kimiMinIntermediatePerRank * tp
	}
	return m.MoEIntermediateSize
}

// mlaOutputGate is Kimi-K3's MLA g_proj for nh query heads (0 elsewhere).
func (m *Model) mlaOutputGate(nh float64) float64 {
	if k := m.KimiLinear; k != nil && k.OutputGate {
		return float64(m.HiddenSize) * nh * float64(m.VHeadDim)
	}
	return 0
}

// kimiLinearProblem says what of a kimi_linear config cannot be sized.
func (m *Model) kimiLinearProblem() string {
	k := m.KimiLinear
	switch {
	case k == nil:
		return ""
	case k.Problem != "":
		return k.Problem
	case !m.IsMLA():
		return "kv_lora_rank missing: Kimi-K3's full-attention layers are MLA"
	case k.KDALayers == 0:
		return "linear_attn_config.kda_layers names no layer"
	case m.IsMoE() && (m.ExpertsPerToken <= 0 || m.MoEIntermediateSize <= 0):
		return "num_experts without num_experts_per_token and moe_intermediate_size"
	}
	return ""
}

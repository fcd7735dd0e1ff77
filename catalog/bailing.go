package catalog

import (
	"encoding/json"
	"fmt"
)

// Ling / Ring (bailing_moe, bailing_moe_v2: inclusionAI/Ling-mini-2.0,
// Ling-flash-2.0, Ring-*-2.0 …; BailingMoeForCausalLM and
// BailingMoeV2ForCausalLM) as vLLM's vllm/model_executor/models/
// bailing_moe.py builds them (read at local-inference-lab/vllm@
// 28be48fa944d8c58aeffd1ab1b56e27828c6b268; BailingAttention, BailingMLP,
// BailingMoE, BailingMoeBlock):
//
//   - BailingAttention: one QKVParallelLinear of num_attention_heads and
//     num_key_value_heads heads of head_dim, biased when use_bias or
//     use_qkv_bias; the output projection ("dense") biased when use_bias;
//     with use_qk_norm a query and a key norm of head_dim (an RMSNorm with
//     use_rmsnorm, otherwise an nn.LayerNorm whose bias, 2 × head_dim per
//     layer, vlaunch does not count: 5,120 parameters in Ling-mini-2.0).
//   - Layers below first_k_dense_replace: BailingMLP of intermediate_size;
//     the others BailingMoE: a gate nn.Linear(hidden, num_experts) in
//     router_dtype (float32 when it says "fp32", the model dtype when
//     absent), with moe_router_enable_expert_bias a float32 expert_bias per
//     expert, num_experts experts of moe_intermediate_size, and
//     num_shared_experts shared experts of
//     moe_shared_expert_intermediate_size (moe_intermediate_size without
//     it) as one BailingMLP, without a gate of its own.
//   - use_bias also puts biases on every BailingMLP (refused: no published
//     Ling / Ring 2.0 config sets it).
//   - Two norms per layer, word_embeddings, lm_head unless
//     tie_word_embeddings; load_weights skips names it has no parameter for
//     (the MTP layers are the mtp proposer's).
var bailingTypes = map[string]bool{"bailing_moe": true, "bailing_moe_v2": true}

type bailingConfig struct {
	NumSharedExperts int    `json:"num_shared_experts"`
	UseBias          bool   `json:"use_bias"`
	UseQKVBias       bool   `json:"use_qkv_bias"`
	ExpertBias       bool   `json:"moe_router_enable_expert_bias"`
	RouterDType      string `json:"router_dtype"`
}

func (c *hfConfig) fillBailing(m *Model, raw map[string]json.RawMessage) {
	if !bailingTypes[c.ModelType] {
		return
	}
	var b bailingConfig
	fields := map[string]any{"num_shared_experts": &b.NumSharedExperts, "use_bias": &b.UseBias, "use_qkv_bias": &b.UseQKVBias,
		"moe_router_enable_expert_bias": &b.ExpertBias, "router_dtype": &b.RouterDType}
	for k, dst := range fields {
		if v, ok := raw[k]; ok && string(v) != "null" && json.Unmarshal(v, dst) != nil {
			m.BailingProblem = fmt.Sprintf("%s %s: not what vLLM's bailing_moe.py reads", k, string(v))
			return
		}
	}
	if b.UseBias {
		m.BailingProblem = "use_bias true: the biases of every BailingMLP (dense layers, shared and routed experts)"
		return
	}
	m.AttentionBias, m.OProjBias = b.UseQKVBias, false
	if !m.IsMoE() {
		return
	}
	shared := c.MoESharedExpertIntermediateSize
	if shared == 0 {
		shared = m.MoEIntermediateSize
	}
	if b.NumSharedExperts > 0 && shared != m.MoEIntermediateSize {
		// vlaunch's shared expert is NumSharedExperts routed-width experts
		// (or Qwen2-MoE's gated one); a gateless one of another width is not.
		m.BailingProblem = fmt.Sprintf("moe_shared_expert_intermediate_size %d beside moe_intermediate_size %d: a gateless shared expert of another width than the routed ones", shared, m.MoEIntermediateSize)
		return
	}
	m.NumSharedExperts, m.SharedExpertIntermediateSize = max(b.NumSharedExperts, 0), 0
	m.ScoreCorrectionBias = b.ExpertBias
	m.RouterFP32 = b.RouterDType == "fp32"
	m.RouterBias, m.ExpertBias = false, false
}

func (m *Model) bailingProblem() string {
	if m.BailingProblem == "" {
		return ""
	}
	return m.BailingProblem + " (bailing_moe)"
}

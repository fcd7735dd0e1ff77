package catalog

import (
	"encoding/json"
	"fmt"
)

// ERNIE-4.5 MoE (ernie4_5_moe: baidu/ERNIE-4.5-21B-A3B, -300B-A47B) as
// vLLM's vllm/model_executor/models/ernie45_moe.py builds it (read at
// local-inference-lab/vllm@28be48fa944d8c58aeffd1ab1b56e27828c6b268, a
// fork of vllm-project/vllm main of 2026-05; Ernie4_5_MoeDecoderLayer,
// Ernie4_5_MoeMoE, Ernie4_5_MoeAttention):
//
//   - Attention: one QKVParallelLinear of num_attention_heads and
//     num_key_value_heads heads of head_dim (hidden / heads without it),
//     biased when use_bias is true; o_proj without bias; no QK norm; two
//     RMSNorms per layer.
//   - Layer i has routed experts when use_moe (moe_num_experts > 0 without
//     it), (i + 1) % moe_layer_interval == 0 and moe_layer_start_index ≤ i ≤
//     moe_layer_end_index (num_hidden_layers − 1 when absent; transformers'
//     Ernie4_5_MoeConfig turns −1 into it); the other layers a dense MLP of
//     intermediate_size, biased with use_bias.
//   - A MoE layer: a float32 gate (ReplicatedLinear hidden → moe_num_experts,
//     params_dtype float32, no bias) with a float32 e_score_correction_bias
//     per expert, moe_num_experts experts of moe_intermediate_size, moe_k per
//     token, and with moe_num_shared_experts > 0 one shared MLP of
//     moe_intermediate_size × moe_num_shared_experts (sized here as that many
//     experts of moe_intermediate_size: the same weights and FLOPs).
//   - load_weights skips the "mtp" tensors: the MTP layers are the mtp
//     proposer's (Ernie4_5_MoeMTP), never the main model's.
type ernie45Config struct {
	MoENumExperts       int   `json:"moe_num_experts"`
	MoEK                int   `json:"moe_k"`
	MoENumSharedExperts int   `json:"moe_num_shared_experts"`
	MoELayerStartIndex  *int  `json:"moe_layer_start_index"`
	MoELayerEndIndex    *int  `json:"moe_layer_end_index"`
	MoELayerInterval    *int  `json:"moe_layer_interval"`
	UseMoE              *bool `json:"use_moe"`
	UseBias             *bool `json:"use_bias"`
}

func (c *hfConfig) fillErnie45(m *Model, raw map[string]json.RawMessage) {
	if c.ModelType != "ernie4_5_moe" {
		return
	}
	var e ernie45Config
	fields := map[string]any{"moe_num_experts": &e.MoENumExperts, "moe_k": &e.MoEK, "moe_num_shared_experts": &e.MoENumSharedExperts,
		"moe_layer_start_index": &e.MoELayerStartIndex, "moe_layer_end_index": &e.MoELayerEndIndex, "moe_layer_interval": &e.MoELayerInterval,
		"use_moe": &e.UseMoE, "use_bias": &e.UseBias}
	for k, dst := range fields {
		if v, ok := raw[k]; ok && json.Unmarshal(v, dst) != nil {
			m.Ernie45Problem = fmt.Sprintf("%s %s: not the integer or boolean vLLM's ernie45_moe.py reads", k, string(v))
			return
		}
	}
	bias := e.UseBias != nil && *e.UseBias
	m.AttentionBias, m.OProjBias, m.QKNorm = bias, false, false
	if bias {
		// Ernie4_5_MoeMLP's gate_up_proj and down_proj then carry biases
		// too, which vlaunch does not count (every published ERNIE-4.5
		// MoE config says use_bias false).
		m.Ernie45Problem = "use_bias true: the biases of ERNIE-4.5's dense MLPs (Ernie4_5_MoeMLP)"
		return
	}
	useMoE := e.MoENumExperts > 0
	if e.UseMoE != nil {
		useMoE = *e.UseMoE
	}
	if !useMoE || e.MoENumExperts <= 0 {
		return // a dense stack of Ernie4_5_MoeMLP
	}
	start, end, interval := 0, m.NumLayers-1, 1
	if e.MoELayerStartIndex != nil {
		start = *e.MoELayerStartIndex
	}
	if _, ok := raw["moe_layer_end_index"]; ok {
		if e.MoELayerEndIndex == nil {
			m.Ernie45Problem = "moe_layer_end_index null: vLLM's Ernie4_5_MoeDecoderLayer compares each layer index with it (transformers turns only -1 into the last layer)"
			return
		}
		if end = *e.MoELayerEndIndex; end == -1 {
			end = m.NumLayers - 1
		}
	}
	if e.MoELayerInterval != nil {
		interval = *e.MoELayerInterval
	}
	if interval <= 0 || e.MoEK <= 0 || e.MoEK > e.MoENumExperts || c.MoEIntermediateSize.n <= 0 || e.MoENumSharedExperts < 0 {
		m.Ernie45Problem = fmt.Sprintf("moe_layer_interval %d, moe_k %d of %d experts, moe_intermediate_size %d, moe_num_shared_experts %d: vLLM's ernie45_moe.py needs a positive interval, 1 ≤ moe_k ≤ moe_num_experts and a positive expert width",
			interval, e.MoEK, e.MoENumExperts, c.MoEIntermediateSize.n, e.MoENumSharedExperts)
		return
	}
	m.NumExperts, m.ExpertsPerToken, m.MoEIntermediateSize = e.MoENumExperts, e.MoEK, c.MoEIntermediateSize.n
	m.NumSharedExperts, m.SharedExpertIntermediateSize = e.MoENumSharedExperts, 0
	m.FirstKDenseReplace, m.MoELayerFreq = 0, 1
	m.RouterFP32, m.ScoreCorrectionBias, m.RouterBias, m.ExpertBias = true, true, false, false
	m.MoELayers = make([]bool, m.NumLayers)
	moe := false
	for i := range m.MoELayers {
		m.MoELayers[i] = (i+1)%interval == 0 && i >= start && i <= end
		moe = moe || m.MoELayers[i]
	}
	if !moe {
		m.NumExperts, m.MoELayers = 0, nil // vLLM builds dense MLPs only
	}
}

func (m *Model) ernie45Problem() string {
	if m.Ernie45Problem == "" {
		return ""
	}
	return m.Ernie45Problem + " (ernie4_5_moe)"
}

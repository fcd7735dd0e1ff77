package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// layerInt is an integer config field some families write per layer, as a
// list (Hunyuan's moe_intermediate_size, moe_topk, num_shared_expert;
// vLLM's hunyuan_v1.py reads entry layer_id of a list). n is the value, or
// the list's one value when every entry is the same; list is kept when the
// file holds a list. Any other JSON reads as 0 without a list, as a
// missing field would (the check that needs it then refuses it).
type layerInt struct {
	n    int
	list []int
}

// UnmarshalJSON reads a number or a list of numbers.
func (l *layerInt) UnmarshalJSON(b []byte) error {
	*l = layerInt{}
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		var list []int
		if json.Unmarshal(b, &list) != nil {
			l.list = []int{} // a list, but not of integers
			return nil
		}
		l.list = list
		if len(list) > 0 {
			l.n = list[0]
			for _, v := range list {
				if v != l.n {
					l.n = 0 // per-layer values differ
				}
			}
		}
		return nil
	}
	var f float64
	if json.Unmarshal(b, &f) == nil && f == float64(int(f)) {
		l.n = int(f)
	}
	return nil
}

// listKeys names the integer fields c holds as per-layer lists.
func (c *hfConfig) listKeys() []string {
	var out []string
	for _, f := range []struct {
		key string
		v   layerInt
	}{{"intermediate_size", c.IntermediateSize}, {"moe_intermediate_size", c.MoEIntermediateSize}, {"num_experts", c.NumExperts}} {
		if f.v.list != nil {
			out = append(out, f.key)
		}
	}
	return out
}

// Hunyuan (tencent/Hunyuan-A13B-Instruct: model_type hunyuan or
// hunyuan_v1_moe, HunYuanMoEV1ForCausalLM; the dense Hunyuan-7B / Hy-MT2:
// hunyuan_v1_dense, HunYuanDenseV1ForCausalLM) as vLLM's
// vllm/model_executor/models/hunyuan_v1.py builds it (read at
// local-inference-lab/vllm@28be48fa944d8c58aeffd1ab1b56e27828c6b268;
// HunYuanDecoderLayer, HunYuanAttention, HunYuanSparseMoeBlock):
//
//   - Attention: head_dim, else attention_head_dim, else hidden / heads;
//     qkv_proj and o_proj both biased when attention_bias (or bias); with
//     use_qk_norm an RMSNorm of head_dim on queries and on keys. With
//     use_cla, layers whose index is not a multiple of cla_share_factor
//     are HunYuanCrossAttention reading another layer's KV (refused:
//     cross-layer KV sharing is not modelled).
//   - num_experts > 1 (_is_moe): every layer a HunYuanSparseMoeBlock, a
//     gate (ReplicatedLinear hidden → num_experts, model dtype, no bias),
//     num_experts experts of moe_intermediate_size (entry layer_id of a
//     list), moe_topk per token (likewise), and with use_mixed_mlp_moe a
//     shared_mlp of intermediate_size × num_shared_expert. vlaunch sizes
//     uniform lists, and a shared MLP whose width is a whole number of
//     routed experts' (num_shared_expert experts when intermediate_size
//     equals moe_intermediate_size, as in Hunyuan-A13B).
//   - Otherwise a HunYuanMLP of intermediate_size (mlp_bias: refused).
//   - Two RMSNorms per layer; embed_tokens, an LM head unless
//     tie_word_embeddings.
var hunyuanArchitectures = map[string]bool{"HunYuanMoEV1ForCausalLM": true, "HunYuanDenseV1ForCausalLM": true}

var hunyuanTypes = map[string]bool{"hunyuan": true, "hunyuan_v1_moe": true, "hunyuan_v1_dense": true}

type hunyuanConfig struct {
	MoETopK         layerInt `json:"moe_topk"`
	NumSharedExpert layerInt `json:"num_shared_expert"`
	UseCLA          bool     `json:"use_cla"`
	MLPBias         bool     `json:"mlp_bias"`
	Bias            bool     `json:"bias"`
}

func (c *hfConfig) fillHunyuan(m *Model, raw map[string]json.RawMessage) {
	if !hunyuanTypes[c.ModelType] {
		return
	}
	m.HunyuanFamily = true
	if !hunyuanArchitectures[m.Architecture] {
		m.HunyuanProblem = fmt.Sprintf("architecture %q: vLLM registers Hunyuan as HunYuanMoEV1ForCausalLM or HunYuanDenseV1ForCausalLM only", m.Architecture)
		return
	}
	var h hunyuanConfig
	for k, dst := range map[string]any{"moe_topk": &h.MoETopK, "num_shared_expert": &h.NumSharedExpert, "use_cla": &h.UseCLA, "mlp_bias": &h.MLPBias, "bias": &h.Bias} {
		if v, ok := raw[k]; ok && string(v) != "null" && json.Unmarshal(v, dst) != nil {
			m.HunyuanProblem = fmt.Sprintf("%s %s: not what vLLM's hunyuan_v1.py reads", k, string(v))
			return
		}
	}
	mixed := false
	if v, ok := raw["use_mixed_mlp_moe"]; ok {
		var b bool
		var f float64
		mixed = (json.Unmarshal(v, &b) == nil && b) || (json.Unmarshal(v, &f) == nil && f > 0)
	}
	if (c.HeadDim == nil || *c.HeadDim <= 0) && c.AttentionHeadDim > 0 {
		m.HeadDim = c.AttentionHeadDim
	}
	m.AttentionBias = (c.AttentionBias != nil && *c.AttentionBias) || h.Bias
	m.OProjBias = m.AttentionBias
	switch {
	case h.UseCLA:
		m.HunyuanProblem = "use_cla true: cross-layer attention (HunYuanCrossAttention layers reading another layer's KV, cla_share_factor)"
		return
	case c.NumExperts.list != nil || c.IntermediateSize.list != nil:
		m.HunyuanProblem = "num_experts or intermediate_size as a per-layer list"
		return
	}
	if c.NumExperts.n <= 1 {
		m.NumExperts, m.ExpertsPerToken, m.MoEIntermediateSize, m.NumSharedExperts = 0, 0, 0, 0
		if h.MLPBias {
			m.HunyuanProblem = "mlp_bias true: the biases of HunYuanMLP"
		}
		return
	}
	moeWidth := c.MoEIntermediateSize.n
	if c.MoEIntermediateSize.list == nil && c.MoEIntermediateSize.n == 0 {
		moeWidth = c.IntermediateSize.n
	}
	shared := 0
	if mixed {
		shared = h.NumSharedExpert.n
	}
	switch {
	case h.MoETopK.n <= 0 || moeWidth <= 0 || (mixed && shared <= 0):
		m.HunyuanProblem = fmt.Sprintf("moe_topk %v, moe_intermediate_size %v, num_shared_expert %v: vlaunch sizes one positive value for every layer", h.MoETopK.list, c.MoEIntermediateSize.list, h.NumSharedExpert.list)
		return
	case mixed && c.IntermediateSize.n != moeWidth:
		m.HunyuanProblem = fmt.Sprintf("a shared MLP of intermediate_size %d × %d beside experts of %d: a shared expert of another width than the routed ones", c.IntermediateSize.n, shared, moeWidth)
		return
	}
	m.NumExperts, m.ExpertsPerToken, m.MoEIntermediateSize = c.NumExperts.n, h.MoETopK.n, moeWidth
	m.NumSharedExperts, m.SharedExpertIntermediateSize = shared, 0
	m.FirstKDenseReplace, m.MoELayerFreq, m.MoELayers = 0, 1, nil
	m.RouterFP32, m.ScoreCorrectionBias, m.RouterBias, m.ExpertBias = false, false, false, false
}

func (m *Model) hunyuanProblem() string {
	if m.HunyuanProblem == "" {
		return ""
	}
	return m.HunyuanProblem + " (hunyuan_v1)"
}

package catalog

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Step-3.x (step3p5: Step-3.5-Flash, and the text_config of Step-3.7's
// step3p7 wrapper, whose vision tower catalog/step3p7.go counts) as vLLM's
// vllm/model_executor/models/step3p5.py builds it (read at vllm-project/vllm 01b50b9e; Step3p5DecoderLayer,
// Step3p5Attention, FusedMoEBlock, Step3p5Model.load_weights):
//
//   - Attention (att_impl_type GQA, the only one vLLM builds): a layer
//     whose layer_types entry equals attention_other_setting.attention_type
//     (sliding_attention) takes that setting's num_attention_heads,
//     num_attention_groups and head_dim, the others num_attention_heads,
//     num_attention_groups (the KV heads) and head_dim. Sliding layers get
//     per_layer_sliding_window = sliding_window. Every layer has q_norm and
//     k_norm of head_dim (GemmaRMSNorm, whatever use_qk_norm says) and, with
//     use_head_wise_attn_gate, g_proj: one gate per query head
//     (ColumnParallelLinear hidden_size → heads, split over TP).
//   - Experts in the layers moe_layers_enum lists (a comma-separated
//     string; without it every layer but the first): a float32 gate
//     (FP32ReplicatedLinear, need_fp32_gate) and router_bias per expert,
//     moe_num_experts routed experts of moe_intermediate_size, moe_top_k per
//     token, and one shared expert of share_expert_dim (Step3p5MLP: gate/up
//     and down, no gate of its own). The other layers: a dense MLP of
//     intermediate_size. Two norms per layer.
//   - layer_types lists num_hidden_layers + num_nextn_predict_layers
//     entries (the MTP layers'); load_weights skips layers at or beyond
//     num_hidden_layers, so only the first num_hidden_layers count.
//   - The MTP proposer (vllm/model_executor/models/step3p5_mtp.py, read at
//     vllm-project/vllm 12c9ac28: Step3p5AMultiTokenPredictor) builds one
//     Step3p5DecoderLayer per num_nextn_predict_layers at prefix
//     model.layers.{num_hidden_layers + j}.mtp_block, so each takes its
//     attention from layer_types at that index and experts only when
//     moe_layers_enum lists that index (Step3p5DecoderLayer decides by
//     extract_layer_index(prefix) in moe_layers_enum): the published
//     enum lists 3–44, so the MTP layers 45–47 are dense MLPs of
//     intermediate_size (Model.MTPLayersModel).
//   - The per-layer swiglu limits change the activation only (no weights).

// Step3p5 is Step-3.x's per-layer attention; nil for every other model.
type Step3p5 struct {
	// SWAType is attention_other_setting.attention_type: the layer type
	// whose layers take the setting's heads.
	SWAType    string `json:"swa_type"`
	SWAHeads   int    `json:"swa_num_attention_heads"`
	SWAKVHeads int    `json:"swa_num_attention_groups"`
	SWAHeadDim int    `json:"swa_head_dim"`
	// HeadGate: use_head_wise_attn_gate (g_proj, one gate per query head).
	HeadGate bool `json:"head_wise_attn_gate,omitempty"`
	// ShareExpertDim is share_expert_dim (the shared expert's width).
	ShareExpertDim int `json:"share_expert_dim"`
	// FP32Gate is need_fp32_gate: the router runs in float32 (vLLM's
	// FP32ReplicatedLinear; SGLang's step3p5.py casts the hidden states
	// and the gate weight to float32 and multiplies them every forward).
	FP32Gate bool `json:"need_fp32_gate,omitempty"`
	// RouterScale is moe_router_scaling_factor, the factor the routed
	// experts' top-k weights are multiplied by (0: not given).
	RouterScale float64 `json:"moe_router_scaling_factor,omitempty"`
	// MoELayersErr says why moe_layers_enum could not be read ("" when it
	// could or is absent).
	MoELayersErr string `json:"moe_layers_error,omitempty"`
	// MTPLayerTypes are layer_types' entries past num_hidden_layers: the
	// MTP layers' attention (step3p5_mtp.py builds layer
	// num_hidden_layers + j).
	MTPLayerTypes []string `json:"mtp_layer_types,omitempty"`
	// MTPMoELayers are moe_layers_enum's indices at or past
	// num_hidden_layers: the MTP layers that take experts (none in the
	// published config).
	MTPMoELayers []int `json:"mtp_moe_layers,omitempty"`
}

// step3p5Fields are the config.json keys of Step-3.x vLLM reads.
type step3p5Fields struct {
	NumAttentionGroups    int                    `json:"num_attention_groups"`
	AttentionOtherSetting map[string]interface{} `json:"attention_other_setting"`
	MoELayersEnum         json.RawMessage        `json:"moe_layers_enum"`
	MoENumExperts         int                    `json:"moe_num_experts"`
	MoETopK               int                    `json:"moe_top_k"`
	ShareExpertDim        int                    `json:"share_expert_dim"`
	UseHeadWiseAttnGate   *bool                  `json:"use_head_wise_attn_gate"`
	NeedFP32Gate          *bool                  `json:"need_fp32_gate"`
	MoERouterScaling      float64                `json:"moe_router_scaling_factor"`
}

// fillStep3p5 reads Step-3.x's fields (text holds the language model's
// config keys).
func (c *hfConfig) fillStep3p5(m *Model, text map[string]json.RawMessage) {
	if c.ModelType != "step3p5" {
		return
	}
	var f step3p5Fields
	if b, err := json.Marshal(text); err == nil {
		_ = json.Unmarshal(b, &f)
	}
	s := &Step3p5{ShareExpertDim: f.ShareExpertDim, HeadGate: f.UseHeadWiseAttnGate != nil && *f.UseHeadWiseAttnGate,
		FP32Gate: f.NeedFP32Gate != nil && *f.NeedFP32Gate, RouterScale: max(f.MoERouterScaling, 0)}
	m.NumKVHeads = firstPositive(f.NumAttentionGroups, m.NumKVHeads)
	s.SWAHeads, s.SWAKVHeads, s.SWAHeadDim = m.NumHeads, m.NumKVHeads, m.HeadDim
	if o := f.AttentionOtherSetting; o != nil {
		s.SWAType, _ = o["attention_type"].(string)
		s.SWAHeads = positiveInt(o["num_attention_heads"], s.SWAHeads)
		s.SWAKVHeads = positiveInt(o["num_attention_groups"], s.SWAKVHeads)
		s.SWAHeadDim = positiveInt(o["head_dim"], s.SWAHeadDim)
	}
	m.Step3p5 = s
	// The heads follow layer_types with or without a sliding window; it
	// also lists the MTP layers, which vLLM's main model skips.
	m.LayerTypes = append([]string(nil), c.LayerTypes[:min(len(c.LayerTypes), m.NumLayers)]...)
	if len(c.LayerTypes) > m.NumLayers {
		s.MTPLayerTypes = append([]string(nil), c.LayerTypes[m.NumLayers:]...)
	}
	m.QKNorm, m.QKNormAllHeads = true, false
	m.NumExperts = max(f.MoENumExperts, 0)
	if m.NumExperts == 0 {
		return
	}
	m.ExpertsPerToken = max(f.MoETopK, 0)
	m.MoEIntermediateSize = firstPositive(c.MoEIntermediateSize.n)
	m.NumSharedExperts, m.SharedExpertIntermediateSize = 0, 0
	if f.ShareExpertDim > 0 {
		// One shared expert of share_expert_dim, counted as one more expert
		// of the routed width (step3p5Problem refuses other widths).
		m.NumSharedExperts = 1
	}
	m.FirstKDenseReplace, m.MoELayerFreq, m.MoELayers = 0, 1, nil
	perLayer := make([]int, m.NumLayers)
	if present(f.MoELayersEnum) {
		idx, err := parseMoELayersEnum(f.MoELayersEnum)
		if err != nil {
			s.MoELayersErr = err.Error()
			return
		}
		for _, i := range idx {
			if i < m.NumLayers {
				perLayer[i] = 1
			} else {
				s.MTPMoELayers = append(s.MTPMoELayers, i)
			}
		}
	} else {
		for i := 1; i < m.NumLayers; i++ {
			perLayer[i] = 1
		}
	}
	c.perLayerMoE(m, perLayer)
	// FusedMoEBlock: an FP32ReplicatedLinear gate and a float32 router_bias.
	m.RouterFP32, m.ScoreCorrectionBias = true, true
}

// parseMoELayersEnum reads moe_layers_enum as vLLM does
// (moe_layers_enum.strip().split(","), each an int): a string of layer
// indices. Indices beyond the decoder layers (MTP layers) are kept for the
// caller to drop; a negative one or a non-number is an error, as is a
// non-string.
func parseMoELayersEnum(raw json.RawMessage) ([]int, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("moe_layers_enum is not a string of comma-separated layer indices (vLLM splits it on commas)")
	}
	var out []int
	for _, p := range strings.Split(strings.TrimSpace(s), ",") {
		i, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || i < 0 || i > 1<<20 {
			return nil, fmt.Errorf("moe_layers_enum entry %q is not a layer index", p)
		}
		out = append(out, i)
	}
	return out, nil
}

// LayerHeads is layer i's query heads: Step-3.x's sliding layers have their
// own (attention_other_setting); every other model's layers NumHeads.
func (m *Model) LayerHeads(i int) int {
	if s := m.Step3p5; s != nil && m.isStepOtherLayer(i) {
		return s.SWAHeads
	}
	return m.NumHeads
}

// isStepOtherLayer: layer i's type is attention_other_setting's.
func (m *Model) isStepOtherLayer(i int) bool {
	s := m.Step3p5
	return s != nil && s.SWAType != "" && i >= 0 && i < len(m.LayerTypes) && m.LayerTypes[i] == s.SWAType
}

// step3p5Problem says what of a Step-3.x config cannot be sized.
func (m *Model) step3p5Problem() string {
	s := m.Step3p5
	switch {
	case s == nil:
		return ""
	case s.MoELayersErr != "":
		return s.MoELayersErr
	case len(m.LayerTypes) < m.NumLayers:
		return fmt.Sprintf("layer_types has %d entries for %d layers: Step-3.x's attention is chosen per layer", len(m.LayerTypes), m.NumLayers)
	case s.SWAType != "" && s.SWAType != "sliding_attention":
		return fmt.Sprintf("attention_other_setting.attention_type %q: only sliding_attention layers are modelled", s.SWAType)
	case s.SWAHeads <= 0 || s.SWAKVHeads <= 0 || s.SWAHeadDim <= 0 || s.SWAHeadDim > 1<<14 || s.SWAKVHeads > s.SWAHeads:
		return "attention_other_setting: Step-3.x's sliding-window heads not positive"
	case m.IsMoE() && (m.ExpertsPerToken <= 0 || m.MoEIntermediateSize <= 0):
		return "moe_num_experts without moe_top_k and moe_intermediate_size"
	case m.IsMoE() && s.ShareExpertDim > 0 && s.ShareExpertDim != m.MoEIntermediateSize:
		return fmt.Sprintf("share_expert_dim %d differs from moe_intermediate_size %d: not modelled", s.ShareExpertDim, m.MoEIntermediateSize)
	}
	return ""
}

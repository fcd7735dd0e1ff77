package catalog

import (
	"encoding/json"
	"fmt"
)

// MiMo-V2-Flash (mimo_v2_flash) as vLLM's vllm/model_executor/models/
// mimo_v2_flash.py builds it (read at vllm-project/vllm 01ed47b4): layers
// whose hybrid_layer_pattern entry is 1 use sliding-window attention
// (sliding_window_size) with their own heads (swa_num_attention_heads,
// swa_num_key_value_heads, swa_head_dim, swa_v_head_dim) and, with
// add_swa_attention_sink_bias, one sink per head; the others full attention
// (num_attention_heads, num_key_value_heads, head_dim, v_head_dim), no sink.
// Keys and values have their own head sizes (FlashAttentionDiffKVBackend):
// the cache holds head_dim + v_head_dim per KV head. Experts in the layers
// moe_layer_freq marks (a float32 gate with its e_score_correction_bias,
// moe_router_dtype), a dense MLP of intermediate_size in the others; two
// norms per layer; attention_chunk_size is not read by vLLM's model.
//
// MiMo-V2.6 (XiaomiMiMo/MiMo-V2.6-Flash, -Flash-MOPD, -Flash-RL) publishes
// the same text decoder under model_type mimo_v2 (vLLM's MiMoV2ForCausalLM
// in vllm/model_executor/models/mimo_v2.py, MiMoV2OmniForCausalLM when the
// config has a vision_config): sliding_window in place of
// sliding_window_size, a bfloat16 router (moe_router_dtype, which
// MiMoV2MoE reads: `getattr(config, "moe_router_dtype", "float32")`), RoPE
// bases of 1e7 (full layers) and 1e4 (swa_rope_theta), and routed experts
// stored in MXFP4 under an FP8 quantization_config (store_dtype, read in
// parseQuant).

// MiMoV2 is MiMo-V2-Flash's per-layer attention shapes; nil otherwise.
type MiMoV2 struct {
	SWAHeads    int  `json:"swa_num_attention_heads"`
	SWAKVHeads  int  `json:"swa_num_key_value_heads"`
	SWAHeadDim  int  `json:"swa_head_dim"`
	SWAVHeadDim int  `json:"swa_v_head_dim"`
	VHeadDim    int  `json:"v_head_dim"`
	SWASinks    bool `json:"add_swa_attention_sink_bias,omitempty"`
	// SeparateSWARope: swa_rope_theta differs from rope_theta, so vLLM's
	// get_rope builds a second rotary embedding (its cache key holds the
	// base) and a second cos/sin cache for the sliding-window layers.
	SeparateSWARope bool `json:"separate_swa_rope,omitempty"`
	// PatternLen is len(hybrid_layer_pattern), checked against the layers.
	PatternLen int `json:"pattern_len"`
}

// fillMiMo reads MiMo-V2-Flash's fields.
func (c *hfConfig) fillMiMo(m *Model) {
	if c.ModelType != "mimo_v2_flash" && c.ModelType != "mimo_v2" {
		return
	}
	g := &MiMoV2{SWAHeads: firstPositive(c.SWANumAttentionHeads, m.NumHeads), SWAKVHeads: firstPositive(c.SWANumKVHeads, m.NumKVHeads),
		SWAHeadDim: firstPositive(c.SWAHeadDim, m.HeadDim), VHeadDim: firstPositive(c.VHeadDim, m.HeadDim), PatternLen: len(c.HybridLayerPattern),
		SWASinks: c.AddSWAAttentionSinkBias != nil && *c.AddSWAAttentionSinkBias}
	g.SWAVHeadDim = firstPositive(c.SWAVHeadDim, g.VHeadDim)
	m.MiMo = g
	m.SlidingWindow = firstPositive(c.SlidingWindowSize, m.SlidingWindow)
	m.LayerTypes = make([]string, 0, len(c.HybridLayerPattern))
	for _, p := range c.HybridLayerPattern {
		t := "full_attention"
		if p == 1 {
			t = "sliding_attention"
		}
		m.LayerTypes = append(m.LayerTypes, t)
	}
	m.NumSharedExperts, m.SharedExpertIntermediateSize = 0, 0
	m.VHeadDim = 0 // not MLA: the per-layer V sizes are MiMo's own
	// vLLM's MiMoV2MoE: a gate in moe_router_dtype (float32 by default)
	// with its e_score_correction_bias.
	m.RouterFP32 = c.MoERouterDType == "" || c.MoERouterDType == "float32"
	m.ScoreCorrectionBias = true
	g.SeparateSWARope = c.SWARopeTheta > 0 && c.SWARopeTheta != c.RopeTheta
}

// looseFloat is a number that reads as 0 when the JSON value is not one
// (a list, a string, null), for fields only some families state as a number.
type looseFloat float64

// UnmarshalJSON keeps a number and ignores anything else.
func (f *looseFloat) UnmarshalJSON(b []byte) error {
	var v float64
	if json.Unmarshal(b, &v) == nil {
		*f = looseFloat(v)
	}
	return nil
}

// mimoProblem says what of a MiMo-V2-Flash config cannot be sized.
func (m *Model) mimoProblem() string {
	g := m.MiMo
	switch {
	case g == nil:
		return ""
	case g.PatternLen != m.NumLayers:
		return fmt.Sprintf("hybrid_layer_pattern has %d entries for %d layers", g.PatternLen, m.NumLayers)
	case m.SlidingWindow <= 0:
		return "sliding_window_size: MiMo-V2-Flash's sliding-window layers need it"
	case g.SWAHeads != m.NumHeads:
		return fmt.Sprintf("swa_num_attention_heads %d differs from num_attention_heads %d: not modelled", g.SWAHeads, m.NumHeads)
	case g.SWAKVHeads <= 0 || g.SWAHeadDim <= 0 || g.SWAVHeadDim <= 0 || g.VHeadDim <= 0 || g.SWAKVHeads > m.NumHeads ||
		g.SWAHeadDim > 1<<14 || g.SWAVHeadDim > 1<<14 || g.VHeadDim > 1<<14:
		return "swa_num_key_value_heads, swa_head_dim, swa_v_head_dim, v_head_dim: MiMo-V2-Flash fields not positive"
	}
	return ""
}

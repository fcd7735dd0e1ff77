package catalog

import "fmt"

// Gemma 4 (gemma4_text, alone or in the gemma4 multimodal wrapper) as vLLM's
// vllm/model_executor/models/gemma4.py builds it (read at vllm-project/vllm
// 001cabc1):
//
//   - attention: sliding-window layers of num_key_value_heads KV heads of
//     head_dim, full-attention ("global") layers of global_head_dim with
//     num_global_key_value_heads KV heads where attention_k_eq_v (else
//     num_key_value_heads); one QKVParallelLinear each, whose V slot vLLM
//     allocates even for k_eq_v layers (it loads K's weights into it), so the
//     cache holds K and V for every layer; q and k RMSNorms with weights, v
//     without;
//   - every layer a gated MLP of intermediate_size (GELU), and with
//     enable_moe_block a MoE beside it: num_experts experts of
//     moe_intermediate_size, top_k_experts routed, a router (a weightless
//     norm, a per-dimension scale, a projection) and a per-expert scale;
//   - four RMSNorms per layer, three more with the MoE block; tied
//     embeddings.
//
// Per-layer inputs (hidden_size_per_layer_input) and KV sharing across
// layers (num_kv_shared_layers), which the small E2B/E4B models use, are not
// modelled and refused.

// Gemma4 is Gemma 4's global-attention shape; nil for every other model.
type Gemma4 struct {
	GlobalHeadDim int  `json:"global_head_dim"`
	GlobalKVHeads int  `json:"num_global_key_value_heads"`
	KEqV          bool `json:"attention_k_eq_v,omitempty"`
	// MoEBlock marks the experts beside every layer's dense MLP.
	MoEBlock bool `json:"enable_moe_block,omitempty"`
	// PerLayerInput and KVSharedLayers are what is refused when positive.
	PerLayerInput  int `json:"hidden_size_per_layer_input,omitempty"`
	KVSharedLayers int `json:"num_kv_shared_layers,omitempty"`
}

// fillGemma4 reads Gemma 4's fields.
func (c *hfConfig) fillGemma4(m *Model) {
	if c.ModelType != "gemma4_text" {
		return
	}
	g := &Gemma4{GlobalHeadDim: m.HeadDim, GlobalKVHeads: m.NumKVHeads, MoEBlock: c.EnableMoEBlock,
		PerLayerInput: c.HiddenSizePerLayerInput, KVSharedLayers: c.NumKVSharedLayers}
	if c.GlobalHeadDim > 0 {
		g.GlobalHeadDim = c.GlobalHeadDim
	}
	if c.AttentionKEqV != nil && *c.AttentionKEqV {
		g.KEqV = true
		if c.NumGlobalKVHeads > 0 {
			g.GlobalKVHeads = c.NumGlobalKVHeads
		}
	}
	m.Gemma4 = g
	m.QKNorm = true
	if !g.MoEBlock {
		m.NumExperts, m.ExpertsPerToken, m.MoEIntermediateSize = 0, 0, 0
	} else {
		m.ExpertsPerToken = firstPositive(c.TopKExperts, m.ExpertsPerToken)
	}
	m.NumSharedExperts, m.SharedExpertIntermediateSize = 0, 0
}

// gemma4Problem says what of a Gemma 4 config cannot be sized ("" when all
// of it can).
func (m *Model) gemma4Problem() string {
	g := m.Gemma4
	switch {
	case g == nil:
		return ""
	case g.PerLayerInput > 0:
		return "hidden_size_per_layer_input: Gemma 4's per-layer embeddings (E2B/E4B)"
	case g.KVSharedLayers > 0:
		return "num_kv_shared_layers: Gemma 4's KV cache shared across layers (E2B/E4B)"
	case g.GlobalHeadDim <= 0 || g.GlobalKVHeads <= 0 || g.GlobalHeadDim > 1<<14 || g.GlobalKVHeads > m.NumHeads:
		return "global_head_dim, num_global_key_value_heads: Gemma 4's global attention fields not positive"
	case len(m.LayerTypes) < m.NumLayers:
		return fmt.Sprintf("layer_types has %d entries for %d layers", len(m.LayerTypes), m.NumLayers)
	case g.MoEBlock && (m.NumExperts <= 0 || m.ExpertsPerToken <= 0 || m.MoEIntermediateSize <= 0):
		return "enable_moe_block without num_experts, top_k_experts and moe_intermediate_size"
	}
	return ""
}

// HasLayerAttention reports whether the model's layers differ in their
// attention shapes (Gemma 4, MiMo-V2-Flash, Step-3.x): LayerKV (and
// LayerHeads) then say each layer's.
func (m *Model) HasLayerAttention() bool { return m.Gemma4 != nil || m.MiMo != nil || m.Step3p5 != nil }

// LayerKV is layer i's KV heads and key and value head sizes: Gemma 4's
// global layers and MiMo-V2-Flash's sliding-window and full layers have
// their own; every other model's layers share the model's (V as K).
func (m *Model) LayerKV(i int) (kvHeads, kDim, vDim int) {
	full := i >= 0 && i < len(m.LayerTypes) && m.LayerTypes[i] == "full_attention"
	switch {
	case m.Gemma4 != nil && full:
		return m.Gemma4.GlobalKVHeads, m.Gemma4.GlobalHeadDim, m.Gemma4.GlobalHeadDim
	case m.MiMo != nil && full:
		return m.NumKVHeads, m.HeadDim, m.MiMo.VHeadDim
	case m.MiMo != nil:
		return m.MiMo.SWAKVHeads, m.MiMo.SWAHeadDim, m.MiMo.SWAVHeadDim
	case m.isStepOtherLayer(i):
		return m.Step3p5.SWAKVHeads, m.Step3p5.SWAHeadDim, m.Step3p5.SWAHeadDim
	}
	return m.NumKVHeads, m.HeadDim, m.HeadDim
}

// layeredAttentionParams is the mean over the layers of one layer's
// attention for heads query heads of the model's NumHeads (a TP rank's
// share: KV heads split, or replicated where TP exceeds them, as vLLM's
// QKVParallelLinear does): q and k of the key size, v of the value size
// (Gemma 4 allocates it even for k_eq_v layers), o_proj from the value
// size, Gemma 4's and Step-3.x's q and k norms, MiMo-V2-Flash's sliding
// layers' sinks, Step-3.x's g_proj (one gate per query head). Step-3.x's
// sliding layers have their own query heads (LayerHeads), split over the
// same TP ranks.
func (m *Model) layeredAttentionParams(heads float64) float64 {
	h := float64(m.HiddenSize)
	tp := 1
	if heads > 0 {
		tp = max(1, int(float64(m.NumHeads)/heads+0.5))
	}
	var sum float64
	for i := 0; i < m.NumLayers; i++ {
		kv, kd, vd := m.LayerKV(i)
		kvr := float64(max(1, ceilDivInt(kv, tp)))
		k, v := float64(kd), float64(vd)
		lh := heads
		if n := m.LayerHeads(i); n != m.NumHeads && m.NumHeads > 0 {
			lh = heads * float64(n) / float64(m.NumHeads)
		}
		sum += h*lh*k + h*kvr*(k+v) + lh*v*h
		if m.Gemma4 != nil || m.Step3p5 != nil {
			sum += 2 * k
		}
		if m.Step3p5 != nil && m.Step3p5.HeadGate {
			sum += h * lh
		}
		if m.MiMo != nil && m.MiMo.SWASinks && m.IsSlidingLayer(i) {
			sum += heads
		}
	}
	return sum / float64(max(m.NumLayers, 1))
}

func ceilDivInt(a, b int) int {
	if b <= 0 {
		return a
	}
	return (a + b - 1) / b
}

package catalog

// OLMo 2 and Olmo 3 (olmo2: allenai/OLMo-2-*; olmo3: allenai/Olmo-3-*-7B,
// -32B) as vLLM builds both with vllm/model_executor/models/olmo2.py (read
// at local-inference-lab/vllm@28be48fa944d8c58aeffd1ab1b56e27828c6b268;
// the registry maps Olmo2ForCausalLM and Olmo3ForCausalLM to it):
//
//   - Olmo2Attention: head_dim = hidden_size / num_attention_heads (a
//     head_dim key is not read), one QKVParallelLinear and o_proj without
//     bias, q_norm an RMSNorm over hidden_size (all query heads at once) and
//     k_norm one over num_key_value_heads × head_dim: QKNormAllHeads.
//   - A layer is sliding-window (per_layer_sliding_window = sliding_window)
//     when config.layer_types lists "sliding_attention" for it, full
//     otherwise. transformers' Olmo3Config fills an absent layer_types with
//     three sliding layers to one full ((i + 1) % 4 != 0 → sliding) and an
//     absent sliding_window with 4,096; Olmo2Config has neither, so OLMo 2
//     layers are all full.
//   - Olmo2MLP: gate_up_proj and down_proj without bias; two RMSNorms per
//     layer (post_attention_layernorm, post_feedforward_layernorm: post-norm,
//     the same count as pre-norm), the final norm, an untied LM head unless
//     tie_word_embeddings.
var olmoTypes = map[string]bool{"olmo2": true, "olmo3": true}

func (c *hfConfig) fillOlmo(m *Model) {
	if !olmoTypes[c.ModelType] {
		return
	}
	m.HeadDim = m.HiddenSize / m.NumHeads
	m.AttentionBias, m.OProjBias = false, false
	m.QKNorm, m.QKNormAllHeads = true, true
	m.SlidingWindow, m.LayerTypes = 0, nil
	types := c.LayerTypes
	window := 0
	if c.SlidingWindow != nil {
		window = *c.SlidingWindow
	}
	if c.ModelType == "olmo3" {
		if len(types) == 0 {
			for i := 0; i < m.NumLayers; i++ {
				t := "sliding_attention"
				if (i+1)%4 == 0 {
					t = "full_attention"
				}
				types = append(types, t)
			}
		}
		if c.SlidingWindow == nil {
			window = 4096
		}
	}
	if window <= 0 {
		return // no sliding layers: vLLM passes per_layer_sliding_window None
	}
	for _, t := range types {
		if t == "sliding_attention" {
			m.SlidingWindow, m.LayerTypes = window, append([]string(nil), types...)
			return
		}
	}
}

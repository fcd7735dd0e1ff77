package catalog

import (
	"encoding/json"
	"fmt"
)

// NVIDIA's Llama-Nemotron NAS models (nvidia/Llama-3_3-Nemotron-Super-49B-v1
// and -v1_5, Llama-3_1-Nemotron-Ultra-253B-v1, Llama-3.1-Nemotron-Nano-8B;
// model_type nemotron-nas, DeciLMForCausalLM) as vLLM's
// vllm/model_executor/models/nemotron_nas.py builds them (read at
// local-inference-lab/vllm@28be48fa944d8c58aeffd1ab1b56e27828c6b268;
// DeciLMDecoderLayer, DeciModel), one decoder layer per block_configs entry:
//
//   - attention.no_op true: no self_attn and no input_layernorm (forward
//     skips both). Otherwise a LlamaAttention of num_attention_heads query
//     heads and num_attention_heads // attention.n_heads_in_group KV heads,
//     head_dim as Llama's (hidden / heads), and its input_layernorm.
//     Only no_op is read: replace_with_linear, window_length, sparsify and
//     the sink fields are not (a linear replacement is refused below: vLLM
//     would build full attention from a layer whose checkpoint holds a
//     linear map).
//   - ffn.no_op true: no mlp and no post_attention_layernorm. Otherwise a
//     LlamaMLP (gate_up_proj, down_proj) of _ffn_mult_to_intermediate_size:
//     int(2 × ffn_mult × hidden / 3) rounded up to a multiple of 256 (or
//     ffn.intermediate_size where ffn_mult is absent), bias as mlp_bias.
//   - embed_tokens, the final norm, an LM head unless tie_word_embeddings.
//
// Layers with attention hold the KV cache: ModelConfig.
// get_num_layers_by_block_type counts the block_configs entries whose
// attention is not a no-op (vllm/config/model.py, has_noops), and
// NemotronNasModelArchConfigConvertor.get_total_num_kv_heads returns the
// first such layer's KV heads (vllm/transformers_utils/
// model_arch_config_convertor.py) for every layer.
type NemotronNAS struct {
	// KVHeads is each layer's KV heads; 0 where attention is a no-op.
	KVHeads []int `json:"kv_heads"`
	// FFN is each layer's MLP width; 0 where the FFN is a no-op.
	FFN []int `json:"ffn"`
	// Problem is what of the block_configs vlaunch does not size ("" when
	// it sizes all of them).
	Problem string `json:"-"`
}

// nasBlock is one block_configs entry, the fields nemotron_nas.py reads
// and those it ignores that would change the weights.
type nasBlock struct {
	Attention struct {
		NoOp              bool  `json:"no_op"`
		NHeadsInGroup     *int  `json:"n_heads_in_group"`
		ReplaceWithLinear bool  `json:"replace_with_linear"`
		Sparsify          any   `json:"sparsify"`
		WindowLength      *int  `json:"window_length"`
		NumSinkTokens     *int  `json:"num_sink_tokens"`
		Unshifted         *bool `json:"unshifted_sink"`
	} `json:"attention"`
	FFN struct {
		NoOp              bool     `json:"no_op"`
		FFNMult           *float64 `json:"ffn_mult"`
		IntermediateSize  *int     `json:"intermediate_size"`
		ReplaceWithLinear bool     `json:"replace_with_linear"`
		Sparsify          any      `json:"sparsify"`
	} `json:"ffn"`
}

// FFNMultToIntermediateSize is DeciLM's _ffn_mult_to_intermediate_size
// (nemotron_nas.py): int(2 × ffn_mult × n_embd / 3), rounded up to a
// multiple of 256 (_find_multiple).
func FFNMultToIntermediateSize(ffnMult float64, hidden int) int {
	n := int(2 * ffnMult * float64(hidden) / 3)
	if n%256 == 0 {
		return n
	}
	return n + 256 - n%256
}

// fillNemotronNAS reads block_configs into m.NAS: per-layer KV heads and FFN
// widths; NumKVHeads the first attention layer's (as vLLM's convertor),
// IntermediateSize the widest FFN (what the activation peak and the TP split
// checks read).
func (c *hfConfig) fillNemotronNAS(m *Model, text map[string]json.RawMessage) {
	if c.ModelType != "nemotron-nas" {
		return
	}
	n := &NemotronNAS{}
	m.NAS = n
	var blocks []nasBlock
	raw, ok := text["block_configs"]
	if !ok || json.Unmarshal(raw, &blocks) != nil {
		n.Problem = "block_configs absent or not a list of blocks: DeciLMDecoderLayer builds layer i from block_configs[i]"
		return
	}
	if len(blocks) != m.NumLayers {
		n.Problem = fmt.Sprintf("%d block_configs for num_hidden_layers %d: DeciModel builds one layer per entry of the first num_hidden_layers", len(blocks), m.NumLayers)
		return
	}
	var mlpBias bool
	if v, ok := text["mlp_bias"]; ok {
		_ = json.Unmarshal(v, &mlpBias)
	}
	if mlpBias {
		n.Problem = "mlp_bias true: LlamaMLP's biases are not counted"
		return
	}
	n.KVHeads, n.FFN = make([]int, len(blocks)), make([]int, len(blocks))
	m.NumKVHeads, m.IntermediateSize = 0, 0
	for i, b := range blocks {
		a, f := b.Attention, b.FFN
		switch {
		case a.ReplaceWithLinear && !a.NoOp, f.ReplaceWithLinear && !f.NoOp:
			n.Problem = fmt.Sprintf("layer %d replace_with_linear: vLLM's DeciLMDecoderLayer reads only no_op and would build a full attention / MLP where the checkpoint holds a linear map", i)
			return
		case !a.NoOp && (a.NHeadsInGroup == nil || *a.NHeadsInGroup <= 0 || m.NumHeads%*a.NHeadsInGroup != 0):
			n.Problem = fmt.Sprintf("layer %d attention without a positive n_heads_in_group dividing num_attention_heads %d", i, m.NumHeads)
			return
		case !f.NoOp && (f.FFNMult == nil || *f.FFNMult <= 0) && (f.IntermediateSize == nil || *f.IntermediateSize <= 0):
			n.Problem = fmt.Sprintf("layer %d FFN without a positive ffn_mult or intermediate_size", i)
			return
		}
		if !a.NoOp {
			n.KVHeads[i] = m.NumHeads / *a.NHeadsInGroup
			if m.NumKVHeads == 0 {
				m.NumKVHeads = n.KVHeads[i]
			}
			if n.KVHeads[i] != m.NumKVHeads {
				// vLLM's convertor reports the first attention layer's KV
				// heads for the model; one KV page size is what vlaunch sizes.
				n.Problem = fmt.Sprintf("layer %d has %d KV heads where the first attention layer has %d: vlaunch sizes one KV-head count for every attention layer", i, n.KVHeads[i], m.NumKVHeads)
				return
			}
		}
		if !f.NoOp {
			if f.FFNMult != nil && *f.FFNMult > 0 {
				n.FFN[i] = FFNMultToIntermediateSize(*f.FFNMult, m.HiddenSize)
			} else {
				n.FFN[i] = *f.IntermediateSize
			}
			m.IntermediateSize = max(m.IntermediateSize, n.FFN[i])
		}
	}
	if m.NumKVHeads == 0 {
		n.Problem = "no layer with attention: an attention-free model"
	}
}

// nasProblem is what of a nemotron-nas config vlaunch does not size.
func (m *Model) nasProblem() string {
	if m.NAS == nil || m.NAS.Problem == "" {
		return ""
	}
	return m.NAS.Problem + " (nemotron-nas)"
}

// nasLayer reports whether layer i is one of a NAS model's block_configs.
func (m *Model) nasLayer(i int) bool {
	return m.NAS != nil && i >= 0 && i < len(m.NAS.KVHeads) && i < len(m.NAS.FFN)
}

// LayerIntermediate is layer i's dense MLP width: a NAS layer's own (0 for
// a no-op FFN), intermediate_size for every other model.
func (m *Model) LayerIntermediate(i int) int {
	if m.NAS != nil {
		if !m.nasLayer(i) {
			return 0
		}
		return m.NAS.FFN[i]
	}
	return m.IntermediateSize
}

// NormsInLayers is the RMSNorms of layers [first, end): NormsPerLayer each,
// but in a NAS model, whose layers hold input_layernorm only with attention
// and post_attention_layernorm only with an FFN.
func (m *Model) NormsInLayers(first, end int) int {
	if m.NAS == nil {
		return (end - first) * m.NormsPerLayer()
	}
	n := 0
	for i := first; i < end; i++ {
		n += boolInt(m.HasAttention(i)) + boolInt(m.HasFFN(i))
	}
	return n
}

// DenseMLPInLayers is the dense-MLP parameters of layers [first, end) of a
// NAS model (its layers' widths differ); 0 for every other model.
func (m *Model) DenseMLPInLayers(first, end int) float64 {
	if m.NAS == nil {
		return 0
	}
	var sum float64
	for i := first; i < end; i++ {
		sum += m.FFNMatrices() * float64(m.HiddenSize) * float64(m.LayerIntermediate(i))
	}
	return sum
}

// nasModules lists NAS layer i's quantizable projections: Llama's q, k, v,
// o where it has attention, gate, up, down of its own width where it has
// an FFN.
func (m *Model) nasModules(i int) []quantModule {
	var out []quantModule
	if m.HasAttention(i) {
		out = m.attentionModules(float64(m.NumHeads), float64(m.NumKVHeads))
	}
	if m.HasFFN(i) {
		p := float64(m.HiddenSize) * float64(m.LayerIntermediate(i))
		for _, n := range []string{"gate_proj", "up_proj", "down_proj"} {
			out = append(out, quantModule{[]string{"mlp." + n}, p, "dense_mlp"})
		}
	}
	return out
}

package catalog

import (
	"encoding/json"
	"fmt"
)

// IBM Granite-4.0-H (granitemoehybrid: GraniteMoeHybridForCausalLM) as
// vLLM's granitemoehybrid.py builds it (vllm-project/vllm, read at
// 0195c9ec): every layer is a mixer — MambaMixer2 or attention, as its
// layer_types entry says ("mamba", "attention") — followed by
// post_attention_layernorm and the layer's FFN: a GraniteMoeMoE of
// num_local_experts experts of intermediate_size (gate and up fused, down;
// a ReplicatedLinear router without bias) beside a GraniteMoeSharedMLP of
// shared_intermediate_size (input_linear hidden → 2 × width, output_linear
// back: SwiGLU, no gate of its own), or the shared MLP alone where
// num_local_experts is 0 (Granite-4.0-H-Micro, -1B, -350M).
//
// The mixers are read onto Nemotron-H's machinery (catalog/mamba.go): the
// layer_types become a hybrid_override_pattern of M and *, the Mamba-2
// fields mamba_n_heads, mamba_d_head, mamba_d_state, mamba_n_groups and
// mamba_d_conv its Mamba2, with the state sizes MambaStateShapeCalculator
// gives (get_mamba_state_shape_from_config passes intermediate_size =
// mamba_expand × hidden_size, which must equal mamba_n_heads ×
// mamba_d_head). MixerFFN marks that each layer also holds the FFN.
// Unlike Nemotron-H's hook, vLLM sets no SSM cache dtype for this model:
// get_mamba_state_dtype_from_config passes mamba_ssm_cache_dtype "auto",
// so both states are in the model dtype (Mamba2.SSMDType ""); the
// "Padding mamba page size by 0.69%" of a published Granite-4.0-H-Small
// start-up log holds only with a 2-byte temporal state (catalog/granite_test.go).
// Attention: head_dim = hidden_size / num_attention_heads (vLLM ignores a
// head_dim key), q/k/v and o biases per attention_bias, and no rotary
// embedding unless position_embedding_type is "rope" (every published
// Granite-4.0-H is NoPE).

// graniteFields are the granitemoehybrid keys hfConfig does not read.
type graniteFields struct {
	LayerTypes             []string `json:"layer_types"`
	MambaNHeads            int      `json:"mamba_n_heads"`
	MambaDHead             int      `json:"mamba_d_head"`
	MambaDState            int      `json:"mamba_d_state"`
	MambaNGroups           int      `json:"mamba_n_groups"`
	MambaDConv             int      `json:"mamba_d_conv"`
	MambaExpand            int      `json:"mamba_expand"`
	MambaConvBias          *bool    `json:"mamba_conv_bias"`
	MambaProjBias          *bool    `json:"mamba_proj_bias"`
	SharedIntermediateSize int      `json:"shared_intermediate_size"`
	PositionEmbeddingType  *string  `json:"position_embedding_type"`
	HiddenAct              string   `json:"hidden_act"`
}

// graniteLayerKinds maps layer_types entries to pattern characters.
var graniteLayerKinds = map[string]byte{"mamba": 'M', "attention": '*'}

// fillGranite reads a granitemoehybrid language model (text holds its keys).
func (c *hfConfig) fillGranite(m *Model, text map[string]json.RawMessage) {
	if c.ModelType != "granitemoehybrid" {
		return
	}
	var f graniteFields
	if b, err := json.Marshal(text); err == nil {
		_ = json.Unmarshal(b, &f)
	}
	g := &GraniteHybrid{}
	m.Granite = g
	m.MixerFFN = true
	// vLLM's GraniteMoeHybridAttention: head_dim = hidden_size // heads.
	m.HeadDim = m.HiddenSize / m.NumHeads
	if f.PositionEmbeddingType != nil && *f.PositionEmbeddingType == "rope" {
		g.RoPE = true
	}
	switch {
	case len(f.LayerTypes) == 0:
		g.Problem = "layer_types missing: which layers are Mamba-2 and which attention is not stated (vLLM's GraniteMoeHybridModel builds each layer from its layer_types entry)"
		return
	case len(f.LayerTypes) != m.NumLayers:
		g.Problem = fmt.Sprintf("layer_types of %d entries for %d layers", len(f.LayerTypes), m.NumLayers)
		return
	case f.MambaProjBias != nil && *f.MambaProjBias:
		g.Problem = "mamba_proj_bias true: biases on MambaMixer2's in_proj and out_proj are not counted"
		return
	case f.HiddenAct != "" && f.HiddenAct != "silu":
		g.Problem = fmt.Sprintf("hidden_act %q: vLLM's GraniteMoeSharedMLP runs silu only", f.HiddenAct)
		return
	}
	m.HybridPattern = layerPattern(f.LayerTypes, graniteLayerKinds)
	g.Expand = f.MambaExpand
	m.Mamba = &Mamba2{NumHeads: f.MambaNHeads, HeadDim: f.MambaDHead, StateSize: f.MambaDState,
		NGroups: f.MambaNGroups, ConvKernel: f.MambaDConv, ConvBias: f.MambaConvBias == nil || *f.MambaConvBias}
	if m.IsMoE() {
		m.SharedExpertIntermediateSize = max(f.SharedIntermediateSize, 0)
		m.NumSharedExperts = 0
	} else {
		// The dense members: the shared MLP is the layer's only FFN.
		m.IntermediateSize = max(f.SharedIntermediateSize, 0)
	}
}

// GraniteHybrid is what of a Granite-4.0-H config the shared fields do not
// hold.
type GraniteHybrid struct {
	// Expand is mamba_expand: MambaMixer2's intermediate size is
	// mamba_expand × hidden_size.
	Expand int `json:"mamba_expand"`
	// RoPE marks position_embedding_type "rope" (refused: every published
	// Granite-4.0-H is NoPE, and the rotary cache is not sized for it).
	RoPE bool `json:"rope,omitempty"`
	// Problem is what of the config cannot be sized ("" when all of it can).
	Problem string `json:"-"`
}

// graniteProblem says what of a granitemoehybrid config cannot be sized.
func (m *Model) graniteProblem() string {
	g := m.Granite
	if g == nil {
		return ""
	}
	if g.Problem != "" {
		return g.Problem
	}
	if g.RoPE {
		return "position_embedding_type rope: vlaunch sizes the NoPE Granite-4.0-H (every published one), not its rotary cache"
	}
	for i := 0; i < len(m.HybridPattern); i++ {
		if k := m.HybridPattern[i]; k != 'M' && k != '*' {
			return fmt.Sprintf("layer_types entry %d is neither \"mamba\" nor \"attention\"", i)
		}
	}
	mm := m.Mamba
	if mm.NumHeads <= 0 || mm.HeadDim <= 0 || mm.StateSize <= 0 || mm.NGroups <= 0 || mm.ConvKernel <= 0 ||
		mm.NumHeads%mm.NGroups != 0 || mm.NumHeads > 1<<14 || mm.HeadDim > 1<<14 || mm.StateSize > 1<<14 || mm.ConvKernel > 64 {
		return "mamba_n_heads, mamba_d_head, mamba_d_state, mamba_n_groups, mamba_d_conv: Mamba-2 fields missing or not positive (mamba_n_heads a multiple of mamba_n_groups)"
	}
	if g.Expand <= 0 || g.Expand*m.HiddenSize != mm.NumHeads*mm.HeadDim {
		return fmt.Sprintf("mamba_expand %d × hidden_size %d is not mamba_n_heads %d × mamba_d_head %d: vLLM sizes the mixer and its state from the first, the heads from the second",
			g.Expand, m.HiddenSize, mm.NumHeads, mm.HeadDim)
	}
	if m.HiddenSize%m.NumHeads != 0 {
		return fmt.Sprintf("hidden_size %d not a multiple of num_attention_heads %d (vLLM's head_dim is their quotient)", m.HiddenSize, m.NumHeads)
	}
	if !m.IsMoE() && m.IntermediateSize <= 0 {
		return "neither num_local_experts nor shared_intermediate_size: no FFN in any layer"
	}
	if m.IsMoE() && (m.ExpertsPerToken <= 0 || m.ExpertsPerToken > m.NumExperts || m.MoEIntermediateSize <= 0) {
		return "num_experts_per_tok and intermediate_size (the experts' width) must be positive, at most num_local_experts experts"
	}
	return ""
}

// graniteModules lists Granite-4.0-H layer i's quantizable linear modules
// under the checkpoint's names (model.layers.N.*: mamba.in_proj /
// out_proj, self_attn.q/k/v/o_proj, block_sparse_moe.input_linear /
// output_linear with every expert stacked, shared_mlp.input_linear /
// output_linear; the router, block_sparse_moe.router.layer, is built with
// quant_config None in vLLM's GraniteMoeMoE and is not listed). As for
// Nemotron-H, the Mamba-2 projections count in the "attention" part.
func (m *Model) graniteModules(i int) []quantModule {
	h := float64(m.HiddenSize)
	var out []quantModule
	if m.layerKind(i) == '*' {
		nh, nkv, hd := float64(m.NumHeads), float64(m.NumKVHeads), float64(m.HeadDim)
		out = append(out, quantModule{[]string{"self_attn.q_proj"}, h * nh * hd, "attention"},
			quantModule{[]string{"self_attn.k_proj"}, h * nkv * hd, "attention"},
			quantModule{[]string{"self_attn.v_proj"}, h * nkv * hd, "attention"},
			quantModule{[]string{"self_attn.o_proj"}, nh * hd * h, "attention"})
	} else if g := m.Mamba; g != nil {
		inner := float64(g.NumHeads * g.HeadDim)
		in := h * (2*inner + float64(2*g.NGroups*g.StateSize) + float64(g.NumHeads))
		out = append(out, quantModule{[]string{"mamba.in_proj"}, in, "attention"},
			quantModule{[]string{"mamba.out_proj"}, inner * h, "attention"})
	}
	if !m.IsMoE() {
		p := h * float64(m.IntermediateSize)
		return append(out, quantModule{[]string{"shared_mlp.input_linear"}, 2 * p, "dense_mlp"},
			quantModule{[]string{"shared_mlp.output_linear"}, p, "dense_mlp"})
	}
	e := h * float64(m.MoEIntermediateSize)
	out = append(out, quantModule{[]string{"block_sparse_moe.input_linear"}, 2 * e, "routed"},
		quantModule{[]string{"block_sparse_moe.output_linear"}, e, "routed"})
	if s := float64(m.SharedExpertIntermediateSize); s > 0 {
		out = append(out, quantModule{[]string{"shared_mlp.input_linear"}, 2 * h * s, "shared"},
			quantModule{[]string{"shared_mlp.output_linear"}, h * s, "shared"})
	}
	return out
}

// GraniteAllReduces is one Granite-4.0-H layer's TP all-reduces: the
// mixer's row-parallel output (out_proj or o_proj), the fused MoE's
// reduce of its outputs (GraniteMoeMoE: "finally we reduce the outputs
// across ranks") and the shared MLP's row-parallel output_linear.
func (m *Model) GraniteAllReduces() int {
	n := 1
	if m.IsMoE() {
		n++
	}
	if m.SharedExpertIntermediateSize > 0 || !m.IsMoE() {
		n++
	}
	return n
}

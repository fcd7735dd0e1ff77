package catalog

import (
	"fmt"
	"strings"
)

// Nemotron-H (nemotron_h: Nemotron-H, Nemotron-Nano-2, Nemotron-3) stacks
// single-mixer layers as hybrid_override_pattern spells them, one character
// per layer: M a Mamba-2 mixer, * attention, - an MLP, E a mixture of
// experts (vllm/model_executor/models/nemotron_h.py). Each layer is one
// norm and its mixer; MLPs and experts are up_proj → relu² → down_proj (no
// gate). A Mamba-2 layer caches a fixed state per sequence
// (MambaStateShapeCalculator.mamba2_state_shape, vllm/model_executor/
// layers/mamba/mamba_utils.py):
//
//	conv state     = (conv_kernel − 1, (mamba_num_heads × mamba_head_dim + 2 × n_groups' × ssm_state_size) / TP)
//	temporal state = (mamba_num_heads / TP, mamba_head_dim, ssm_state_size)
//
// where n_groups' is n_groups rounded up so that every rank holds the groups
// its heads use (extra_groups_for_head_shards).

// Mamba2 is a Mamba-2 mixer's shape; nil for models without one.
type Mamba2 struct {
	NumHeads   int  `json:"mamba_num_heads"`
	HeadDim    int  `json:"mamba_head_dim"`
	StateSize  int  `json:"ssm_state_size"`
	NGroups    int  `json:"n_groups"`
	ConvKernel int  `json:"conv_kernel"`
	ConvBias   bool `json:"use_conv_bias,omitempty"`
	// SSMDType is the temporal state's dtype: the config's
	// mamba_ssm_cache_dtype, else float32 as vLLM's Nemotron-H hook sets it.
	SSMDType string `json:"mamba_ssm_cache_dtype,omitempty"`
}

// layerKind is the hybrid_override_pattern character of layer i (0 when
// the model has no pattern).
func (m *Model) layerKind(i int) byte {
	if i < 0 || i >= len(m.HybridPattern) {
		return 0
	}
	return m.HybridPattern[i]
}

// IsMambaLayer reports whether layer i is a Mamba-2 mixer.
func (m *Model) IsMambaLayer(i int) bool { return m.Mamba != nil && m.layerKind(i) == 'M' }

// HasAttention reports whether layer i holds softmax attention with a paged
// KV cache: not a Gated DeltaNet or Mamba layer, nor a Nemotron-H MLP/MoE
// layer.
func (m *Model) HasAttention(i int) bool {
	if m.NAS != nil {
		return m.nasLayer(i) && m.NAS.KVHeads[i] > 0
	}
	if m.HybridPattern != "" {
		return m.layerKind(i) == '*'
	}
	return !m.IsLinearLayer(i)
}

// HasFFN reports whether layer i holds an MLP or experts (every layer of
// the other families).
func (m *Model) HasFFN(i int) bool {
	if m.NAS != nil {
		return m.nasLayer(i) && m.NAS.FFN[i] > 0
	}
	if m.HybridPattern != "" {
		k := m.layerKind(i)
		return k == '-' || k == 'E' || m.MixerFFN
	}
	return true
}

// MambaLayerCount is the number of Mamba-2 layers.
func (m *Model) MambaLayerCount() int {
	return strings.Count(m.HybridPattern, "M") * boolInt(m.Mamba != nil)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// groups is n_groups rounded for tp ranks as vLLM shards them.
func (g Mamba2) groups(tp int) int {
	if g.NGroups%tp == 0 {
		return g.NGroups
	}
	// extra_groups_for_head_shards adds tp − n_groups: n_groups + that = tp.
	return tp
}

// MambaStateElems are one Mamba-2 layer's conv and temporal state elements
// for one sequence on one of tp ranks.
func (m *Model) MambaStateElems(tp int) (conv, temporal int64) {
	if m.Mamba == nil {
		return 0, 0
	}
	g, tp := *m.Mamba, max(tp, 1)
	convDim := g.NumHeads*g.HeadDim + 2*g.groups(tp)*g.StateSize
	conv = int64(max(g.ConvKernel-1, 0)) * int64(convDim/tp)
	temporal = int64(g.NumHeads/tp) * int64(g.HeadDim) * int64(g.StateSize)
	return conv, temporal
}

// MambaParams counts one Mamba-2 layer's parameters on one of tp ranks as
// vLLM's MambaMixer2 builds it: in_proj (hidden → z, x, B, C, dt), the
// depthwise conv1d over x, B, C (with its bias), dt_bias, A and D per
// head, the gated RMSNorm over the heads' width, out_proj; all split by
// head (the groups as groups rounds them).
func (m *Model) MambaParams(tp int) float64 {
	if m.Mamba == nil {
		return 0
	}
	g, t := *m.Mamba, max(tp, 1)
	h := float64(m.HiddenSize)
	inner := float64(g.NumHeads * g.HeadDim)
	bc := float64(2 * g.groups(t) * g.StateSize)
	heads := float64(g.NumHeads)
	conv := (inner + bc) * float64(g.ConvKernel)
	if g.ConvBias {
		conv += inner + bc
	}
	total := h*(2*inner+bc+heads) + conv + 3*heads + inner + inner*h
	return total / float64(t)
}

// fillMamba reads Nemotron-H's pattern and Mamba-2 fields.
func (c *hfConfig) fillMamba(m *Model) {
	if c.ModelType != "nemotron_h" || c.HybridOverridePattern == "" {
		return
	}
	m.HybridPattern = c.HybridOverridePattern
	m.NonGatedFFN = true
	m.Mamba = &Mamba2{NumHeads: c.MambaNumHeads, HeadDim: c.MambaHeadDim, StateSize: c.SSMStateSize,
		NGroups: c.NGroups, ConvKernel: c.ConvKernel, ConvBias: c.UseConvBias == nil || *c.UseConvBias}
	// vLLM's NemotronHForCausalLMConfig hook sets mamba_ssm_cache_dtype
	// (when left auto) to the config's value, float32 without one
	// (DEFAULT_MAMBA_SSM_CACHE_DTYPE, vllm/model_executor/models/config.py;
	// earlier releases defaulted to float16: not modelled per release).
	switch c.MambaSSMCacheDType {
	case "bfloat16":
		m.Mamba.SSMDType = "bf16"
	case "float16":
		m.Mamba.SSMDType = "fp16"
	default:
		m.Mamba.SSMDType = "fp32"
	}
	if c.AttentionHeadDim > 0 {
		m.HeadDim = c.AttentionHeadDim
	}
	if c.MoESharedExpertIntermediateSize > 0 {
		m.SharedExpertIntermediateSize = c.MoESharedExpertIntermediateSize
		m.NumSharedExperts = 0
	}
	if m.IsMoE() {
		// vLLM's NemotronHMoE: a float32 gate without bias and a float32
		// e_score_correction_bias.
		m.RouterFP32, m.ScoreCorrectionBias = true, true
		m.MoELatentSize = max(c.MoELatentSize, 0)
	}
}

// nemotronBlockTypes maps layers_block_type to hybrid_override_pattern as
// NemotronHConfig's _list_to_pattern does.
var nemotronBlockTypes = map[string]byte{"mamba": 'M', "moe": 'E', "attention": '*', "mlp": '-'}

// nemotronDefaults turns a Nemotron-H config that lists layers_block_type
// instead of hybrid_override_pattern (Nemotron-3 Ultra) into the pattern,
// with num_hidden_layers its length, as NemotronHConfig derives both; it
// runs before the field check. An unknown block type becomes '?', which
// mambaProblem refuses.
func (c *hfConfig) nemotronDefaults() {
	if c.ModelType != "nemotron_h" || c.HybridOverridePattern != "" || len(c.LayersBlockType) == 0 || len(c.LayersBlockType) > 10000 {
		return
	}
	c.HybridOverridePattern = layerPattern(c.LayersBlockType, nemotronBlockTypes)
	c.NumHiddenLayers = len(c.LayersBlockType)
}

// layerPattern writes a hybrid's per-layer type names as its pattern of
// one byte per layer (kinds: a name's byte; '?' for a name not in it,
// which mambaProblem refuses).
func layerPattern(types []string, kinds map[string]byte) string {
	b := make([]byte, len(types))
	for i, t := range types {
		b[i] = '?'
		if k, ok := kinds[t]; ok {
			b[i] = k
		}
	}
	return string(b)
}

// ExpertHidden is the width routed experts work at: moe_latent_size for a
// latent MoE (Nemotron-3 Super/Ultra: fc1_latent_proj takes the hidden
// state down to it, fc2_latent_proj back), else the hidden size.
func (m *Model) ExpertHidden() int {
	if m.MoELatentSize > 0 {
		return m.MoELatentSize
	}
	return m.HiddenSize
}

// LatentProjParams is one MoE layer's latent projections (fc1_latent_proj
// and fc2_latent_proj, hidden × latent each, no bias: mlp_bias false), which
// vLLM's NemotronHMoE builds as ReplicatedLinear: whole on every GPU.
func (m *Model) LatentProjParams() float64 {
	if m.MoELatentSize <= 0 {
		return 0
	}
	return 2 * float64(m.HiddenSize) * float64(m.MoELatentSize)
}

// mambaProblem says what of a Nemotron-H config cannot be sized ("" when
// all of it can): the pattern must spell every layer with M, *, - or E, and
// the Mamba-2 fields be positive.
func (m *Model) mambaProblem() string {
	if m.HybridPattern == "" || m.Granite != nil { // Granite: graniteProblem
		return ""
	}
	if len(m.HybridPattern) != m.NumLayers || strings.Trim(m.HybridPattern, "M*-E") != "" {
		return fmt.Sprintf("hybrid_override_pattern of %d characters other than M, *, - and E for %d layers", len(m.HybridPattern), m.NumLayers)
	}
	g := m.Mamba
	if g.NumHeads <= 0 || g.HeadDim <= 0 || g.StateSize <= 0 || g.NGroups <= 0 || g.ConvKernel <= 0 ||
		g.NumHeads%g.NGroups != 0 || g.NumHeads > 1<<14 || g.HeadDim > 1<<14 || g.StateSize > 1<<14 || g.ConvKernel > 64 {
		return "mamba_num_heads, mamba_head_dim, ssm_state_size, n_groups, conv_kernel: Mamba-2 fields missing or not positive"
	}
	if strings.Contains(m.HybridPattern, "E") && !m.IsMoE() {
		return "hybrid_override_pattern has MoE layers (E) but the config no n_routed_experts"
	}
	if m.MoELatentSize > m.HiddenSize {
		return fmt.Sprintf("moe_latent_size %d above hidden_size %d", m.MoELatentSize, m.HiddenSize)
	}
	return ""
}

// HasDenseMLP reports whether layer i holds a dense MLP: every FFN layer
// without experts, and Gemma 4's layers, whose MoE block runs beside the
// MLP.
func (m *Model) HasDenseMLP(i int) bool {
	return m.HasFFN(i) && (!m.IsMoELayer(i) || m.Gemma4 != nil || m.LongCat != nil)
}

// nemotronPrefix is where a Nemotron-H checkpoint keeps layer %d: its
// modules are backbone.layers.N.mixer.* (vLLM's NemotronHForCausalLM maps
// "backbone" to "model" on load; ModelOpt's exclude_modules name the
// checkpoint's own paths, e.g. nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4's
// "backbone.layers.4.mixer.in_proj").
const nemotronPrefix = "backbone.layers.%d."

// nemotronModules lists Nemotron-H layer i's quantizable linear modules
// under its one mixer, as vLLM builds them with the checkpoint's
// quant_config (vllm/model_executor/models/nemotron_h.py and
// layers/mamba/mamba_mixer2.py, read at commit 00b08dc, release not
// pinned): attention's q/k/v/o; Mamba-2's in_proj (z, x, B, C, dt) and
// out_proj (conv1d is built with quant_config None and the router gate
// is a float32 GateLinear: neither is listed); an MLP's or a shared
// expert's up_proj and down_proj (relu², no gate); one representative
// routed expert. Mamba-2 projections belong to the "attention" part: the
// memory model counts a Mamba layer's mixer where attention would be
// (estimate/memory Placement), so one share covers both.
func (m *Model) nemotronModules(i int) []quantModule {
	h := float64(m.HiddenSize)
	mod := func(name string, p float64, part string) quantModule {
		return quantModule{[]string{"mixer." + name}, p, part}
	}
	switch m.layerKind(i) {
	case '*':
		nh, nkv, hd := float64(m.NumHeads), float64(m.NumKVHeads), float64(m.HeadDim)
		return []quantModule{mod("q_proj", h*nh*hd, "attention"), mod("k_proj", h*nkv*hd, "attention"),
			mod("v_proj", h*nkv*hd, "attention"), mod("o_proj", nh*hd*h, "attention")}
	case 'M':
		if m.Mamba == nil {
			return nil
		}
		g := *m.Mamba
		inner := float64(g.NumHeads * g.HeadDim)
		in := h * (2*inner + float64(2*g.NGroups*g.StateSize) + float64(g.NumHeads))
		return []quantModule{mod("in_proj", in, "attention"), mod("out_proj", inner*h, "attention")}
	case '-':
		p := h * float64(m.IntermediateSize)
		return []quantModule{mod("up_proj", p, "dense_mlp"), mod("down_proj", p, "dense_mlp")}
	case 'E':
		e := float64(m.ExpertHidden()) * float64(m.MoEIntermediateSize)
		out := []quantModule{
			{[]string{"mixer.experts.0.up_proj", "mixer.experts"}, e, "routed"},
			{[]string{"mixer.experts.0.down_proj", "mixer.experts"}, e, "routed"},
		}
		if sh := m.sharedExpertParams(); sh > 0 {
			out = append(out, mod("shared_experts.up_proj", sh/2, "shared"), mod("shared_experts.down_proj", sh/2, "shared"))
		}
		return out
	}
	return nil
}

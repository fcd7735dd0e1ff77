package catalog

// Gated DeltaNet hybrids (Qwen3-Next, Qwen3.5/3.6): most layers are linear
// attention whose cache is a fixed state per sequence, every
// full_attention_interval-th layer is full attention with a paged KV cache.
// vLLM builds them in vllm/model_executor/models/qwen3_next.py and
// qwen3_5.py, and sizes the state with MambaStateShapeCalculator.
// gated_delta_net_state_shape (vllm/model_executor/layers/mamba/
// mamba_utils.py):
//
//	conv_dim       = linear_key_head_dim × linear_num_key_heads × 2 + linear_value_head_dim × linear_num_value_heads
//	conv state     = (conv_dim / TP, linear_conv_kernel_dim − 1)
//	temporal state = (linear_num_value_heads / TP, linear_value_head_dim, linear_key_head_dim)

// LayerLinearAttention is the layer_types entry of a Gated DeltaNet layer.
const LayerLinearAttention = "linear_attention"

// linearAttnFamilies are the model types whose linear_attention layers
// vlaunch models as Gated DeltaNet.
var linearAttnFamilies = map[string]bool{"qwen3_next": true, "qwen3_5_text": true, "qwen3_5_moe_text": true}

// defaultFullAttentionInterval is Qwen3NextConfig's default: every 4th
// layer is full attention.
const defaultFullAttentionInterval = 4

// GatedDeltaNet is the linear-attention layer of a hybrid model; zero for
// every other model.
type GatedDeltaNet struct {
	NumKeyHeads   int `json:"linear_num_key_heads"`
	NumValueHeads int `json:"linear_num_value_heads"`
	KeyHeadDim    int `json:"linear_key_head_dim"`
	ValueHeadDim  int `json:"linear_value_head_dim"`
	ConvKernel    int `json:"linear_conv_kernel_dim"`
	// SSMDType is the recurrent state's dtype the checkpoint asks for
	// (Qwen3.5's mamba_ssm_dtype float32; vLLM's Qwen3.5 config hook sets
	// mamba_ssm_cache_dtype from it); "" is the model's activation dtype,
	// vLLM's default (mamba_ssm_cache_dtype auto).
	SSMDType string `json:"mamba_ssm_dtype,omitempty"`
}

// IsLinearLayer reports whether layer i is a Gated DeltaNet layer.
func (m *Model) IsLinearLayer(i int) bool {
	return m.GDN != nil && i < len(m.LayerTypes) && m.LayerTypes[i] == LayerLinearAttention
}

// LinearLayerCount is the number of Gated DeltaNet layers.
func (m *Model) LinearLayerCount() int {
	n := 0
	for i := 0; i < m.NumLayers; i++ {
		if m.IsLinearLayer(i) {
			n++
		}
	}
	return n
}

// convDim is the channels of the short convolution over q, k and v.
func (g GatedDeltaNet) convDim() int {
	return g.KeyHeadDim*g.NumKeyHeads*2 + g.ValueHeadDim*g.NumValueHeads
}

// GDNStateElems are one layer's conv and temporal (recurrent) state
// elements for one sequence on one of tp ranks (vLLM divides both by TP).
func (m *Model) GDNStateElems(tp int) (conv, temporal int64) {
	if m.GDN == nil {
		return 0, 0
	}
	g := *m.GDN
	tp = max(tp, 1)
	conv = int64(g.convDim()/tp) * int64(max(g.ConvKernel-1, 0))
	temporal = int64(g.NumValueHeads/tp) * int64(g.ValueHeadDim) * int64(g.KeyHeadDim)
	return conv, temporal
}

// LinearAttentionParams counts one Gated DeltaNet layer's parameters held
// with tp-way tensor parallelism (tp = 1: the whole layer), as vLLM's
// Qwen3NextGatedDeltaNet builds it: in_proj_qkvz (hidden → q, k, v, z),
// in_proj_ba (hidden → b, a per value head), the depthwise conv1d over
// conv_dim channels, dt_bias and A_log per value head, out_proj (value
// heads → hidden), all split by head; the gated RMSNorm (value head dim)
// whole on every rank. Qwen3.5 splits in_proj into qkv, z, b, a: the same
// weights.
func (m *Model) LinearAttentionParams(tp int) float64 {
	if m.GDN == nil {
		return 0
	}
	if m.KimiLinear != nil {
		return m.kdaParams(tp) // Kimi-K3's KDA layer (catalog/kimilinear.go)
	}
	g := *m.GDN
	t := float64(max(tp, 1))
	h := float64(m.HiddenSize)
	qk := float64(g.NumKeyHeads * g.KeyHeadDim)
	v := float64(g.NumValueHeads * g.ValueHeadDim)
	nv := float64(g.NumValueHeads)
	split := h*(2*qk+2*v) + h*2*nv + float64(g.convDim()*g.ConvKernel) + 2*nv + v*h
	return split/t + float64(g.ValueHeadDim)
}

// fillHybrid reads a Gated DeltaNet hybrid's linear-attention fields and
// its layer types (layer_types, else every full_attention_interval-th
// layer full attention).
func (c *hfConfig) fillHybrid(m *Model) {
	if !linearAttnFamilies[c.ModelType] || c.LinearNumValueHeads <= 0 {
		return
	}
	m.GDN = &GatedDeltaNet{NumKeyHeads: c.LinearNumKeyHeads, NumValueHeads: c.LinearNumValueHeads,
		KeyHeadDim: c.LinearKeyHeadDim, ValueHeadDim: c.LinearValueHeadDim, ConvKernel: c.LinearConvKernelDim}
	if c.MambaSSMDType == "float32" {
		m.GDN.SSMDType = "fp32"
	}
	// Qwen3NextConfig and Qwen3.5's configs default attn_output_gate to
	// true: q_proj also produces a gate per query head.
	m.AttnOutputGate = c.AttnOutputGate == nil || *c.AttnOutputGate
	if len(c.LayerTypes) == m.NumLayers {
		m.LayerTypes = append([]string(nil), c.LayerTypes...)
		return
	}
	every := c.FullAttentionInterval
	if every <= 0 {
		every = defaultFullAttentionInterval
	}
	m.LayerTypes = make([]string, m.NumLayers)
	for i := range m.LayerTypes {
		m.LayerTypes[i] = LayerLinearAttention
		if (i+1)%every == 0 {
			m.LayerTypes[i] = "full_attention"
		}
	}
}

// badFields names the Gated DeltaNet fields complete finds missing, not
// positive or out of range ("linear_num_value_heads" also when not a
// multiple of the key heads), so that a refusal says which.
func (g GatedDeltaNet) badFields() []string {
	var out []string
	for _, f := range []struct {
		name string
		v    int
		lim  int
	}{{"linear_num_key_heads", g.NumKeyHeads, 1 << 14}, {"linear_num_value_heads", g.NumValueHeads, 1 << 14},
		{"linear_key_head_dim", g.KeyHeadDim, 1 << 14}, {"linear_value_head_dim", g.ValueHeadDim, 1 << 14}, {"linear_conv_kernel_dim", g.ConvKernel, 64}} {
		bad := f.v <= 0 || f.v >= f.lim
		if f.name == "linear_num_value_heads" && g.NumKeyHeads > 0 && f.v > 0 && f.v%g.NumKeyHeads != 0 {
			bad = true
		}
		if bad {
			out = append(out, f.name)
		}
	}
	return out
}

// complete reports whether a hybrid's linear-attention fields are all
// positive and divide as vLLM needs (key heads into value heads).
func (g GatedDeltaNet) complete() bool {
	return g.NumKeyHeads > 0 && g.NumValueHeads > 0 && g.KeyHeadDim > 0 && g.ValueHeadDim > 0 && g.ConvKernel > 0 &&
		g.NumValueHeads%g.NumKeyHeads == 0 && g.NumValueHeads < 1<<14 && g.KeyHeadDim < 1<<14 && g.ValueHeadDim < 1<<14 && g.ConvKernel < 64
}

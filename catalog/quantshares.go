package catalog

import (
	"fmt"
	"regexp"
	"strings"
)

// QuantShares are the shares of each weight component a 4-bit (or ModelOpt
// FP8) checkpoint stores quantized, by parameters; the rest is excluded
// (exclude_modules, ignore, modules_to_not_convert) and stays in the torch
// dtype. 1 is all of it, 0 none.
type QuantShares struct {
	Attention float64 `json:"attention"`
	// KVB is MLA's kv_b_proj alone: vLLM keeps de-quantized W_UK/W_UV
	// copies only when it is quantized.
	KVB float64 `json:"kv_b_proj"`
	// AttnModules is, per attention projection (q_proj, kv_b_proj …), the
	// share of layers that quantize it: AttentionQuantShare weighs them by
	// one tensor-parallel rank's parameters, where replicated latent
	// projections (MLA's q_a, kv_a) weigh more than in the whole model.
	AttnModules map[string]float64 `json:"attention_modules,omitempty"`
	DenseMLP    float64            `json:"dense_mlp"`
	Routed      float64            `json:"routed_experts"`
	Shared      float64            `json:"shared_experts"`
	Indexer     float64            `json:"indexer"`
	// Mixed is, for a mixed-precision checkpoint (ModelOpt
	// MIXED_PRECISION, compressed-tensors groups of different formats),
	// each component's storage ("attention", "dense_mlp", "routed",
	// "shared", "indexer", "lm_head"; absent: unquantized), its modules
	// matched against quantized_layers or the groups' targets
	// (mixedprec.go).
	Mixed map[string]MixedPart `json:"mixed,omitempty"`
}

// layerPrefixes are the module paths of decoder layer %d in the checkpoints'
// own naming: plain causal LMs, Kimi-K2.x's wrapper (language_model.model.…)
// Qwen3.5 / Qwen3-VL's (model.language_model.…) and Nemotron-H's
// (backbone.layers.…). An exclusion pattern written for any of them applies.
var layerPrefixes = []string{"model.layers.%d.", "language_model.model.layers.%d.", "model.language_model.layers.%d.", nemotronPrefix}

// quantModule is one linear module of a decoder layer: its path below the
// layer, parameters, and the component it belongs to.
type quantModule struct {
	names  []string
	params float64
	part   string
}

// computeQuantShares matches the checkpoint's exclusion patterns against
// every decoder layer's linear modules, named as Hugging Face checkpoints
// name them (DeepSeek/Kimi/GLM's mlp.shared_experts, Qwen's
// mlp.shared_expert, MiniMax/Mixtral's block_sparse_moe.experts.N.w1-3),
// and weighs what is excluded by parameters. nil without patterns.
func (m *Model) computeQuantShares() *QuantShares {
	mt := newModuleMatcher(m.Quant.ModulesNotConverted)
	total, kept := map[string]float64{}, map[string]float64{}
	attnLayers := map[string]float64{}
	mixed := m.Quant.IsMixedPrecision()
	acc := map[string]*mixedAccum{}
	for i := 0; i < m.NumLayers; i++ {
		for _, mod := range m.layerModules(i) {
			total[mod.part] += mod.params
			q := !mt.any(i, mod.names)
			if q && mixed {
				// Not excluded: quantized only when quantized_layers names it.
				var l mixedLayer
				l, q = m.Quant.mixedFor(i, mod.names)
				if q {
					p := mod.params
					if mod.part == "routed" {
						p *= float64(m.NumExperts) // one representative expert listed
					}
					acc[mod.part] = acc[mod.part].add(l, p, m.HiddenSize)
				}
			}
			if q {
				kept[mod.part] += mod.params
			}
			if mod.part == "attention" {
				attnLayers[mod.names[0]] += b2f(q) // listed even when never quantized
			}
		}
	}
	layersWithAttention := m.NumLayers
	if m.NAS != nil {
		// Llama-Nemotron NAS: a module's share is over the layers that
		// have it (49 of Super-49B's 80), not every layer.
		layersWithAttention = 0
		for i := 0; i < m.NumLayers; i++ {
			layersWithAttention += boolInt(m.HasAttention(i))
		}
	}
	for k := range attnLayers {
		attnLayers[k] /= float64(max(layersWithAttention, 1))
	}
	if m.Mamba != nil {
		// Nemotron-H: attention sits in a few layers and shares its
		// component with the Mamba-2 mixers (nemotronModules), so the
		// component's one share, not per-projection layer shares, applies.
		attnLayers = nil
	}
	if m.GDN != nil {
		// Qwen3-Next / Qwen3.5: the Gated DeltaNet projections share the
		// attention component with the full-attention layers' q/k/v/o.
		attnLayers = nil
	}
	var mixedParts map[string]MixedPart
	if mixed {
		if l, ok := m.Quant.mixedLMHead(); ok && !mt.excluded("lm_head") {
			acc["lm_head"] = acc["lm_head"].add(l, float64(m.VocabSize)*float64(m.HiddenSize), m.HiddenSize)
		}
		mixedParts = m.mixedParts(acc)
	}
	share := func(p string) float64 {
		if total[p] == 0 {
			return 1
		}
		return kept[p] / total[p]
	}
	return &QuantShares{Attention: share("attention"), KVB: share("kv_b"), DenseMLP: share("dense_mlp"),
		Routed: share("routed"), Shared: share("shared"), Indexer: share("indexer"), AttnModules: attnLayers, Mixed: mixedParts}
}

// AttentionQuantShare is the quantized share of the attention parameters
// one GPU holds with heads query and kvHeads KV heads (the model's own
// counts for the whole layer): each projection weighed by its parameters
// at those head counts and by the share of layers that quantize it. It is
// Shares.Attention when the shares do not say per projection, 1 without
// shares.
func (m *Model) AttentionQuantShare(heads, kvHeads float64) float64 {
	s := m.Quant.Shares
	if s == nil {
		return 1
	}
	if len(s.AttnModules) == 0 {
		return s.Attention
	}
	var total, q float64
	for _, mod := range m.attentionModules(heads, kvHeads) {
		total += mod.params
		q += mod.params * s.AttnModules[mod.names[0]]
	}
	if total == 0 {
		return 1
	}
	return q / total
}

// layerModules lists layer i's linear modules (one representative routed
// expert: exclusions name experts by layer, not one by one).
func (m *Model) layerModules(i int) []quantModule {
	if m.Granite != nil {
		return m.graniteModules(i)
	}
	if m.Mamba != nil {
		return m.nemotronModules(i)
	}
	if m.NAS != nil {
		return m.nasModules(i)
	}
	h := float64(m.HiddenSize)
	var out []quantModule
	if m.IsLinearLayer(i) {
		out = m.linearAttentionModules()
	} else {
		out = m.attentionModules(float64(m.NumHeads), float64(m.NumKVHeads))
	}
	if m.IsMLA() {
		kvb := float64(m.KVLoraRank*m.NumHeads) * float64(m.QKNopeHeadDim+m.VHeadDim)
		out = append(out, quantModule{[]string{"self_attn.kv_b_proj"}, kvb, "kv_b"})
	}
	if m.HasIndexer(i) {
		p := m.indexerParams() / 3 // wq_b, wk, weights_proj: weighed alike, the share is what matters
		for _, n := range []string{"wq_b", "wk", "weights_proj"} {
			out = append(out, quantModule{[]string{"self_attn.indexer." + n}, p, "indexer"})
		}
	}
	out = append(out, m.minimaxM3Modules(i)...)
	if !m.IsMoELayer(i) {
		p := h * float64(m.IntermediateSize)
		for _, n := range []string{"gate_proj", "up_proj", "down_proj"} {
			out = append(out, quantModule{[]string{"mlp." + n}, p, "dense_mlp"})
		}
		return out
	}
	e := h * float64(m.MoEIntermediateSize)
	for j, n := range []string{"gate_proj", "up_proj", "down_proj"} {
		w := fmt.Sprintf("w%d", j+1)
		out = append(out, quantModule{[]string{"mlp.experts.0." + n, "block_sparse_moe.experts.0." + w, "mlp.experts"}, e, "routed"})
	}
	if sh := m.sharedExpertParams(); sh > 0 {
		if m.SharedExpertIntermediateSize > 0 && !m.NonGatedFFN {
			// Qwen2-MoE style: the sigmoid gate (hidden → 1) is its own module.
			sh -= h
			out = append(out, quantModule{[]string{"mlp.shared_expert_gate"}, h, "shared"})
		}
		for _, n := range []string{"gate_proj", "up_proj", "down_proj"} {
			// MiniMax-M3 keeps its shared experts under block_sparse_moe.
			out = append(out, quantModule{[]string{"mlp.shared_experts." + n, "mlp.shared_expert." + n, "block_sparse_moe.shared_experts." + n}, sh / 3, "shared"})
		}
	}
	return out
}

// attentionModules lists one layer's attention projections with nh query
// and nkv KV heads (MLA: q_a/q_b or q_proj, kv_a_proj_with_mqa, kv_b_proj,
// o_proj; GQA: q, k, v, o).
func (m *Model) attentionModules(nh, nkv float64) []quantModule {
	h := float64(m.HiddenSize)
	var out []quantModule
	attn := func(name string, p float64) {
		out = append(out, quantModule{[]string{"self_attn." + name}, p, "attention"})
	}
	if m.IsMLA() {
		qk, kvl := float64(m.QKNopeHeadDim+m.QKRopeHeadDim), float64(m.KVLoraRank)
		if m.QLoraRank > 0 {
			ql := float64(m.QLoraRank)
			attn("q_a_proj", h*ql)
			attn("q_b_proj", ql*nh*qk)
		} else {
			attn("q_proj", h*nh*qk)
		}
		attn("kv_a_proj_with_mqa", h*(kvl+float64(m.QKRopeHeadDim)))
		attn("kv_b_proj", kvl*nh*float64(m.QKNopeHeadDim+m.VHeadDim))
		attn("o_proj", nh*float64(m.VHeadDim)*h)
		return out
	}
	hd, vd := float64(m.HeadDim), float64(m.HeadDim)
	if g := m.MiMo; g != nil {
		vd = float64(g.VHeadDim) // MiMo-V2: V (and o_proj's input) narrower than K
	}
	q := h * nh * hd
	if m.AttnOutputGate {
		q *= 2 // Qwen3-Next / Qwen3.5: q_proj also produces the output gate
	}
	attn("q_proj", q)
	attn("k_proj", h*nkv*hd)
	attn("v_proj", h*nkv*vd)
	attn("o_proj", nh*vd*h)
	return out
}

// linearAttentionModules lists a Gated DeltaNet layer's projections as
// Qwen3.5 checkpoints name them (in_proj_qkv, in_proj_z, in_proj_b,
// in_proj_a, out_proj; Qwen3-Next's fused in_proj_qkvz / in_proj_ba as the
// other names) and its depthwise conv1d, at LinearAttentionParams' sizes.
func (m *Model) linearAttentionModules() []quantModule {
	if m.KimiLinear != nil {
		// Kimi-K3's KDA layer lives under self_attn like its MLA layers
		// (vLLM's kimi_linear decoder layer: self.self_attn for both), so a
		// checkpoint's self_attn exclusions reach it; one module at the
		// layer's size, as only the share matters.
		return []quantModule{{[]string{"self_attn.in_proj_qkvgfab", "self_attn"}, m.kdaParams(1), "attention"}}
	}
	g := *m.GDN
	h := float64(m.HiddenSize)
	qk := float64(g.NumKeyHeads * g.KeyHeadDim)
	v := float64(g.NumValueHeads * g.ValueHeadDim)
	nv := float64(g.NumValueHeads)
	mod := func(p float64, names ...string) quantModule {
		for i := range names {
			names[i] = "linear_attn." + names[i]
		}
		return quantModule{names, p, "attention"}
	}
	return []quantModule{
		mod(h*(2*qk+v), "in_proj_qkv", "in_proj_qkvz"),
		mod(h*v, "in_proj_z", "in_proj_qkvz"),
		mod(h*nv, "in_proj_b", "in_proj_ba"),
		mod(h*nv, "in_proj_a", "in_proj_ba"),
		mod(float64(g.convDim()*g.ConvKernel), "conv1d"),
		mod(v*h, "out_proj"),
	}
}

// moduleMatcher answers whether a module path is excluded: a pattern is a
// compressed-tensors regex ("re:…", matched from the start as Python's
// re.match), a glob with * or ? (ModelOpt's "model.layers.0.self_attn*"),
// or a module name that excludes the module and everything below it.
type moduleMatcher struct {
	exact map[string]bool
	globs []globPattern
}

type globPattern struct {
	literal string // the part before the first wildcard: a cheap pre-filter
	re      *regexp.Regexp
}

func newModuleMatcher(patterns []string) moduleMatcher {
	mt := moduleMatcher{exact: map[string]bool{}}
	for _, p := range patterns {
		if len(p) > 4096 {
			continue
		}
		switch {
		case strings.HasPrefix(p, "re:"):
			if re, err := regexp.Compile("^(?:" + p[3:] + ")"); err == nil {
				mt.globs = append(mt.globs, globPattern{re: re})
			}
		case strings.ContainsAny(p, "*?["):
			lit := p[:strings.IndexAny(p, "*?[")]
			if re, err := regexp.Compile("^" + globToRegexp(p) + "$"); err == nil {
				mt.globs = append(mt.globs, globPattern{literal: lit, re: re})
			}
		default:
			mt.exact[p] = true
		}
	}
	return mt
}

// globToRegexp turns fnmatch syntax into RE2: * any run, ? one character,
// [..] a class; everything else literal.
func globToRegexp(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			if j := strings.IndexByte(p[i+1:], ']'); j > 0 {
				b.WriteString("[" + regexp.QuoteMeta(p[i+1:i+1+j]) + "]")
				i += j + 1
				continue
			}
			b.WriteString(`\[`)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// any reports whether any of layer i's names for one module is excluded
// under any of the layer prefixes.
func (mt moduleMatcher) any(layer int, names []string) bool {
	for _, pre := range layerPrefixes {
		p := fmt.Sprintf(pre, layer)
		for _, n := range names {
			if mt.excluded(p + n) {
				return true
			}
		}
	}
	return false
}

func (mt moduleMatcher) excluded(name string) bool {
	for s := name; ; {
		if mt.exact[s] {
			return true
		}
		i := strings.LastIndexByte(s, '.')
		if i < 0 {
			break
		}
		s = s[:i]
	}
	for _, g := range mt.globs {
		if strings.HasPrefix(name, g.literal) && g.re.MatchString(name) {
			return true
		}
	}
	return false
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// FourBitWeightBytes is what the served layers of a 4-bit or ModelOpt
// checkpoint store (MTP layers left out, as in ParamCounts): each linear
// component's quantized share at the format's bytes with its scales, the
// rest (exclusions, embeddings, LM head, routers, norms) in the torch
// dtype. 0 for other checkpoints. It is the total the memory model spreads
// over the GPUs, and what the checkpoint's safetensors hold less any MTP
// layer.
func (m *Model) FourBitWeightBytes() float64 {
	if b := m.MixedWeightBytes(); b > 0 {
		return b // mixed precision: each component at its modules' formats
	}
	q := m.Quant
	b := q.BytesPerParam(m.HiddenSize)
	if q.Format == FormatModelOptFP8 && q.Method == "modelopt" {
		b = 1
	}
	if b == 0 || q.Shares == nil {
		return 0
	}
	wide := 2.0
	if m.TorchDType == "float32" {
		wide = 4
	}
	pc := m.ParamCounts()
	mix := func(params, share float64) float64 { return params * (share*b + (1-share)*wide) }
	s := q.Shares
	return mix(pc.Attention, s.Attention) + mix(pc.DenseMLP, s.DenseMLP) + mix(pc.RoutedExperts, s.Routed) +
		mix(pc.SharedExperts, s.Shared) + mix(pc.Indexer, s.Indexer) +
		(pc.Embedding+pc.LMHead+pc.Router+pc.Norms)*wide
}

package catalog

// ParamCounts splits a model's parameters by component. Totals exclude MTP
// (next-token prediction) layers, which vLLM only loads for speculative decoding.
type ParamCounts struct {
	Embedding     float64 `json:"embedding"`
	LMHead        float64 `json:"lm_head"`
	Attention     float64 `json:"attention"`
	DenseMLP      float64 `json:"dense_mlp"`
	RoutedExperts float64 `json:"routed_experts"`
	SharedExperts float64 `json:"shared_experts"`
	Router        float64 `json:"router"`
	Norms         float64 `json:"norms"`
	// Indexer is DSA's lightning indexer (DeepSeek-V3.2), every layer.
	Indexer float64 `json:"indexer,omitempty"`
	// LatentProj are a latent MoE's fc1/fc2_latent_proj (Nemotron-3
	// Super/Ultra), LatentPerLayer one MoE layer's.
	LatentProj     float64 `json:"latent_proj,omitempty"`
	LatentPerLayer float64 `json:"latent_per_layer,omitempty"`
	// HyperConnections are DeepSeek-V4's hyper-connection mixers (float32;
	// per layer and the hc_head).
	HyperConnections float64 `json:"hyper_connections,omitempty"`
	Total            float64 `json:"total"`

	// Per-layer figures the placement and FLOP models reuse.
	AttentionPerLayer  float64 `json:"attention_per_layer"`
	DenseMLPPerLayer   float64 `json:"dense_mlp_per_layer"`
	ExpertPerLayerEach float64 `json:"expert_per_layer_each"`
	SharedPerLayer     float64 `json:"shared_per_layer"`
	RouterPerLayer     float64 `json:"router_per_layer"`
	// LinearAttentionPerLayer is one Gated DeltaNet layer (hybrids; their
	// Attention sums these layers and the full-attention ones).
	LinearAttentionPerLayer float64 `json:"linear_attention_per_layer,omitempty"`
	// MambaPerLayer is one Mamba-2 layer (Nemotron-H; in Attention too).
	MambaPerLayer   float64 `json:"mamba_per_layer,omitempty"`
	IndexerPerLayer float64 `json:"indexer_per_layer,omitempty"`
}

// Active returns the parameters one token touches in a forward pass:
// everything except the routed experts it is not sent to.
func (p ParamCounts) Active(m *Model) float64 {
	if !m.IsMoE() {
		return p.Total
	}
	if m.LongCat != nil {
		// LongCat-Flash: the expected real experts of its top-k picks
		// (catalog/longcat.go); the zero experts hold no weights.
		return p.Total - p.RoutedExperts + float64(m.MoELayerCount())*m.ExpectedFFNExpertsPerToken()*p.ExpertPerLayerEach
	}
	return p.Total - p.RoutedExperts + float64(m.MoELayerCount()*m.ExpertsPerToken)*p.ExpertPerLayerEach
}

// ParamCounts derives the parameter count of every component from the
// architecture fields.
func (m *Model) ParamCounts() ParamCounts {
	h := float64(m.HiddenSize)
	p := ParamCounts{
		Embedding:          float64(m.VocabSize) * h,
		AttentionPerLayer:  m.attentionParams(),
		DenseMLPPerLayer:   m.FFNMatrices() * h * float64(m.IntermediateSize),
		ExpertPerLayerEach: m.expertParams(),
		SharedPerLayer:     m.sharedExpertParams(),
		RouterPerLayer:     m.routerParams(),
		IndexerPerLayer:    m.indexerParams(),
	}
	if !m.TieWordEmbeddings {
		p.LMHead = p.Embedding
	}
	moe := float64(m.MoELayerCount())
	layers := float64(m.NumLayers)
	var attn, dense float64
	for i := 0; i < m.NumLayers; i++ {
		attn += float64(boolInt(m.HasAttention(i)))
		dense += float64(boolInt(m.HasDenseMLP(i)))
	}
	lin, mamba := float64(m.LinearLayerCount()), float64(m.MambaLayerCount())
	p.LinearAttentionPerLayer = m.LinearAttentionParams(1)
	p.MambaPerLayer = m.MambaParams(1)
	p.Attention = attn*p.AttentionPerLayer + lin*p.LinearAttentionPerLayer + mamba*p.MambaPerLayer
	p.DenseMLP = dense * p.DenseMLPPerLayer
	p.RoutedExperts = moe * float64(m.NumExperts) * p.ExpertPerLayerEach
	p.SharedExperts = moe * p.SharedPerLayer
	p.Router = moe * p.RouterPerLayer
	p.Norms = layers*float64(m.NormsPerLayer())*h + h + m.kimiExtraNorms()
	// Layers that share another's indices (IndexCache) have no indexer.
	p.Indexer = float64(m.IndexerLayers(0, m.NumLayers)) * p.IndexerPerLayer
	if g := m.MiniMaxM3; g != nil {
		// MiniMax-M3's indexer on its sparse layers (catalog/minimaxm3.go).
		p.IndexerPerLayer = m.minimaxM3IndexerParams(float64(g.IndexHeads))
		p.Indexer = float64(m.MiniMaxM3SparseLayers(0, m.NumLayers)) * p.IndexerPerLayer
	}
	if m.DSV4 != nil {
		// The layers' gates differ (hash-routed ones carry a token table
		// instead of a bias): the mean per layer keeps the total exact.
		p.Router = m.dsv4Router()
		p.RouterPerLayer = p.Router / max(moe, 1)
		per, head := m.DSV4HyperConnections()
		p.HyperConnections = layers*per + head
	}
	if m.NAS != nil {
		// Llama-Nemotron NAS: each layer's FFN width and norms its own
		// (catalog/nemotronnas.go); the mean per MLP layer keeps the total exact.
		p.DenseMLP = m.DenseMLPInLayers(0, m.NumLayers)
		p.DenseMLPPerLayer = p.DenseMLP / max(dense, 1)
		p.Norms = float64(m.NormsInLayers(0, m.NumLayers))*h + h
	}
	p.LatentPerLayer = m.LatentProjParams()
	p.LatentProj = moe * p.LatentPerLayer
	p.Total = p.Embedding + p.LMHead + p.Attention + p.DenseMLP + p.RoutedExperts + p.SharedExperts + p.Router + p.Norms + p.Indexer + p.HyperConnections + p.LatentProj
	return p
}

// attentionParams counts one layer's attention projections (and their
// biases, norms and sinks).
func (m *Model) attentionParams() float64 {
	return m.AttentionParams(float64(m.NumHeads), float64(m.NumKVHeads))
}

// AttentionParams counts one layer's attention parameters held with heads
// query heads and kvHeads KV heads: the whole layer with the model's own
// counts, one tensor-parallel rank's share with that rank's counts (package
// estimate/memory). MLA's latent projections (q_a, kv_a_proj_with_mqa and
// their norms) do not split by head, so every rank holds them whole; kvHeads
// is unused for MLA.
func (m *Model) AttentionParams(heads, kvHeads float64) float64 {
	if m.DSV4 != nil {
		return m.dsv4AttentionParams(heads)
	}
	if m.HasLayerAttention() {
		return m.layeredAttentionParams(heads)
	}
	if m.IsMLA() {
		return m.mlaParams(heads)
	}
	h, nh := float64(m.HiddenSize), heads
	hd, nkv := float64(m.HeadDim), kvHeads
	n := h*nh*hd + 2*h*nkv*hd + nh*hd*h
	if m.AttnOutputGate {
		n += h * nh * hd // q_proj's gate half
	}
	if m.AttentionBias {
		n += (nh + 2*nkv) * hd
	}
	if m.OProjBias {
		n += h
	}
	switch {
	case m.QKNormAllHeads:
		n += (nh + nkv) * hd
	case m.QKNorm:
		n += 2 * hd
	}
	if m.AttentionSinks {
		n += nh
	}
	return n
}

// mlaParams counts DeepSeek MLA for nh query heads: q_a/q_b (or q_proj),
// kv_a_proj_with_mqa, kv_b, o_proj and the two LoRA norms.
func (m *Model) mlaParams(nh float64) float64 {
	h := float64(m.HiddenSize)
	qk := float64(m.QKNopeHeadDim + m.QKRopeHeadDim)
	kvl, rope := float64(m.KVLoraRank), float64(m.QKRopeHeadDim)
	q := h * nh * qk
	if m.QLoraRank > 0 {
		ql := float64(m.QLoraRank)
		q = h*ql + ql + ql*nh*qk // q_a and its norm do not split by head
	}
	kv := h*(kvl+rope) + kvl + kvl*nh*float64(m.QKNopeHeadDim+m.VHeadDim)
	o := nh * float64(m.VHeadDim) * h
	return q + kv + o + m.mlaOutputGate(nh)
}

func (m *Model) expertParams() float64 {
	if !m.IsMoE() {
		return 0
	}
	h, im := float64(m.ExpertHidden()), float64(m.MoEIntermediateSize)
	n := m.FFNMatrices() * h * im
	if m.ExpertBias {
		n += 2*im + h
	}
	return n
}

func (m *Model) sharedExpertParams() float64 {
	h := float64(m.HiddenSize)
	if m.SharedExpertIntermediateSize > 0 && m.MixerFFN {
		// Granite-4.0-H's GraniteMoeSharedMLP: gate and up fused, down; no
		// sigmoid gate.
		return 3 * h * float64(m.SharedExpertIntermediateSize)
	}
	if m.SharedExpertIntermediateSize > 0 && m.NonGatedFFN {
		// Nemotron-H: one wide shared expert (up, down), no gate.
		return 2 * h * float64(m.SharedExpertIntermediateSize)
	}
	if m.SharedExpertIntermediateSize > 0 {
		// Qwen2-MoE style: one wide shared expert plus a sigmoid gate.
		return 3*h*float64(m.SharedExpertIntermediateSize) + h
	}
	return float64(m.NumSharedExperts) * 3 * h * float64(m.MoEIntermediateSize)
}

func (m *Model) routerParams() float64 {
	if !m.IsMoE() {
		return 0
	}
	// LongCat-Flash's classifier and correction bias also score its zero
	// experts (vLLM's LongcatRouter).
	e := float64(m.RouterOutputs())
	n := float64(m.HiddenSize) * e
	if m.RouterBias {
		n += e
	}
	if m.ScoreCorrectionBias {
		n += e
	}
	if m.Gemma4 != nil {
		n += float64(m.HiddenSize) + e // the router's scale and the per-expert scale
	}
	return n
}

// indexerParams counts one layer's DSA indexer as vLLM builds it
// (model_executor/models/deepseek_v2.py, class Indexer): wq_b from the
// query latent to index_n_heads × index_head_dim, wk from the hidden state
// to one index_head_dim key, weights_proj from the hidden state to one
// weight per head, and k_norm (a LayerNorm: weight and bias).
func (m *Model) indexerParams() float64 {
	if !m.IsSparseAttention() {
		return 0
	}
	h, n, d := float64(m.HiddenSize), float64(m.IndexNHeads), float64(m.IndexHeadDim)
	qIn := h
	if m.QLoraRank > 0 {
		qIn = float64(m.QLoraRank)
	}
	return qIn*n*d + h*d + h*n + 2*d
}

// FFNMatrices is the weight matrices of one MLP or expert: gate, up and
// down (3), or up and down for Nemotron-H's relu² (2).
func (m *Model) FFNMatrices() float64 {
	if m.NonGatedFFN {
		return 2
	}
	return 3
}

// NormsPerLayer is the RMSNorms of one decoder layer: before attention and
// before the MLP (2), one before Nemotron-H's single mixer, four in Gemma 3.
func (m *Model) NormsPerLayer() int {
	switch {
	case m.HybridPattern != "" && !m.MixerFFN:
		return 1
	case m.ModelType == "gemma3_text":
		return 4 // input, post-attention, pre- and post-feedforward
	case m.Gemma4 != nil && m.Gemma4.MoEBlock:
		return 7 // Gemma 3's four, and the MoE block's pre-, post- and post-MLP norms
	case m.Gemma4 != nil:
		return 4
	}
	return 2
}

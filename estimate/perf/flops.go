package perf

import "github.com/vlaunch/vlaunch/catalog"

// LinearFLOPsPerToken is the matrix-multiply work of one token's forward
// pass through every linear layer: 2 FLOPs (multiply + add) per active
// parameter, excluding the embedding (a table lookup) and including the LM
// head. For DeepSeek-V3 this is ≈ 2 × 36.7B ≈ 73 GFLOPs.
func LinearFLOPsPerToken(m *catalog.Model) float64 {
	p := m.ParamCounts()
	return 2 * (p.Active(m) - p.Embedding)
}

// attnDecodeCoef is the attention FLOPs per (query token, context token)
// pair per layer when a token decodes against a cached context.
//   - MLA, absorbed form (vLLM/FlashMLA decode): the query is projected into
//     the latent space, so scores cost heads × (kv_lora + rope) MACs and the
//     value product heads × kv_lora MACs: 2 × heads × (2·kv_lora + rope).
//   - GQA/MHA: QKᵀ and PV, each heads × head_dim MACs: 4 × heads × head_dim.
func attnDecodeCoef(m *catalog.Model) float64 {
	h := float64(m.NumHeads)
	if m.IsMLA() {
		return 2 * h * float64(2*m.KVLoraRank+m.QKRopeHeadDim)
	}
	return 4 * h * float64(m.HeadDim)
}

// attnPrefillCoef is the attention FLOPs per (query, key) pair per layer in
// prefill. MLA prefill runs in the decompressed (MHA) form: scores over
// qk_nope+rope and values over v_head_dim per head.
func attnPrefillCoef(m *catalog.Model) float64 {
	h := float64(m.NumHeads)
	if m.IsMLA() {
		return 2 * h * float64(m.QKNopeHeadDim+m.QKRopeHeadDim+m.VHeadDim)
	}
	return 4 * h * float64(m.HeadDim)
}

// mlaDecompressCoef is the FLOPs per cached prefix token per layer that
// MLA prefill spends re-expanding the latent through kv_b_proj (a chunk
// attends to earlier chunks in decompressed form). Zero for GQA.
func mlaDecompressCoef(m *catalog.Model) float64 {
	if !m.IsMLA() {
		return 0
	}
	return 2 * float64(m.KVLoraRank) * float64(m.NumHeads) * float64(m.QKNopeHeadDim+m.VHeadDim)
}

// layerContexts returns, for a context length, the number of full-attention
// layers and the summed effective context of sliding-window layers, so the
// attention cost is coef × (full × ctx + slidingCtx). Layers without
// softmax attention (a hybrid's Mamba-2 or Gated DeltaNet mixers, Nemotron-H's
// MLP and MoE layers: catalog.Model.HasAttention) attend to nothing.
func layerContexts(m *catalog.Model, ctx float64) (full int, slidingCtx float64) {
	for i := 0; i < m.NumLayers; i++ {
		if !m.HasAttention(i) {
			continue
		}
		if w := m.AttendedWindow(i); w > 0 { // sliding window, or DSA's top-k
			slidingCtx += min(ctx, float64(w))
			continue
		}
		full++
	}
	return full, slidingCtx
}

// AttentionDecodeFLOPsPerToken is the attention work of one decode token at
// the given context over all layers (sliding-window layers see at most their
// window). DeepSeek-V3 at 32K: 2 × 128 × 1,088 × 32,768 ≈ 9.1 GFLOPs per
// layer, ≈ 557 GFLOPs over 61 layers.
func AttentionDecodeFLOPsPerToken(m *catalog.Model, ctx float64) float64 {
	if a := newDSV4Attention(m, 1); a != nil {
		// Unpadded heads: the model's work, not one rank's kernel's.
		return attnDecodeCoef(m) * a.attended(ctx)
	}
	full, sl := layerContexts(m, ctx)
	return attnDecodeCoef(m) * (float64(full)*ctx + sl)
}

// AttentionPrefillFLOPs is the attention work of prefilling n tokens from an
// empty cache: causal, so n(n+1)/2 query-key pairs per full layer, plus
// nothing for decompression (there is no earlier chunk).
func AttentionPrefillFLOPs(m *catalog.Model, n float64) float64 {
	if a := newDSV4Attention(m, 1); a != nil {
		return attnPrefillCoef(m) * a.prefillPairs(n*(n+1)/2, n)
	}
	full, _ := layerContexts(m, n)
	sliding := float64(attentionLayers(m) - full)
	pairs := n * (n + 1) / 2
	slPairs := n * min((n+1)/2, float64(m.BoundedWindow()))
	return attnPrefillCoef(m) * (float64(full)*pairs + sliding*slPairs)
}

// attentionLayers is the number of layers with softmax attention and a
// paged KV cache (every layer but a hybrid's state and FFN-only layers).
func attentionLayers(m *catalog.Model) int {
	n := 0
	for i := 0; i < m.NumLayers; i++ {
		if m.HasAttention(i) {
			n++
		}
	}
	return n
}

// stateBytesPerSeq is the recurrent state one sequence keeps on one of tp
// GPUs over all of a hybrid's Mamba-2 and Gated DeltaNet layers (zero for
// other models): conv state in the activation dtype (BF16 assumed), the
// temporal state in the checkpoint's mamba_ssm dtype where it sets one —
// the sizes estimate/memory budgets (catalog.Model.MambaStateElems,
// GDNStateElems). vLLM's mixers read and write it once per step of the
// sequence (decode: the selective-state update; prefill: the chunk's
// initial and final state).
func stateBytesPerSeq(m *catalog.Model, tp int) float64 {
	var b float64
	if n := m.MambaLayerCount(); n > 0 {
		conv, tmp := m.MambaStateElems(tp)
		b += float64(n) * (2*float64(conv) + ssmBytes(m.Mamba.SSMDType)*float64(tmp))
	}
	if n := m.LinearLayerCount(); n > 0 {
		conv, tmp := m.GDNStateElems(tp)
		b += float64(n) * (2*float64(conv) + ssmBytes(m.GDN.SSMDType)*float64(tmp))
	}
	return b
}

func ssmBytes(dtype string) float64 {
	if dtype == "fp32" {
		return 4
	}
	return 2
}

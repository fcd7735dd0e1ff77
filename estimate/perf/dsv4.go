package perf

import (
	"math"

	"github.com/vlaunch/vlaunch/catalog"
)

// DeepSeek-V4's attention as vLLM's kernels run it (vLLM
// vllm/model_executor/layers/deepseek_v4_attention.py at 0a291a2e,
// DeepseekV4MLAAttention._forward_decode / _forward_prefill and
// DeepseekV4Indexer; catalog.DeepseekV4Caches for the caches):
//
//   - decode: one flash_mla_with_kvcache call per layer reads the sliding
//     window's entries (indices=decode_swa_indices, topk_length=
//     decode_swa_lens: at most sliding_window) and, on compressed layers,
//     extra_k_cache entries chosen by extra_indices_in_kvcache: on C4A
//     layers the indexer's top-k (topk_indices_buffer through
//     compute_global_topk_indices_and_lens: at most index_topk of the
//     context/4 entries), on C128A layers every compressed entry
//     (c128a_global_decode_topk_indices, built by build_c128a_topk_metadata
//     from the position: context/128 entries). SWA-only layers (ratio 0 or
//     1: swa_only) read the window alone. Each entry is one 584-byte
//     fp8_ds_mla key (head_dim 512: QK over 512, head_dim_v=512 values), one
//     KV head for every query head (MQA);
//   - the query heads are padded to FlashMLA's 64 or 128
//     (DeepseekV4MultiHeadLatentAttentionWrapper.padded_heads), so a TP rank
//     with 8 heads computes 64;
//   - prefill: flash_mla_sparse_fwd over combine_topk_swa_indices — per query
//     the window's tokens and the same compressed selection — after
//     dequantize_and_gather_k_cache gathered seq_len/ratio compressed entries
//     and the window of each chunk's sequence;
//   - the C4A indexer (SparseAttnIndexer, as DeepSeek-V3.2's) scores every
//     compressed indexer key of the context (context/4, index_n_heads ×
//     index_head_dim per key, FP8) to pick its top-k, on every TP rank
//     (replicated).
//
// The model used to price every layer as full attention over the whole
// context at 2 × 512 bytes per token: at 128K, ~60× the bytes vLLM reads.

// dsv4Attention is DeepSeek-V4's attention shape for one pipeline stage.
type dsv4Attention struct {
	layers, c4, c128 float64 // all layers (each with a window), C4A, C128A, per stage
	window, topK     float64
	entryBytes       float64 // one attended key (fp8_ds_mla)
	idxEntryBytes    float64 // one C4A indexer key
	idxPerPair       float64 // indexer FLOPs per (query, compressed key)
}

func newDSV4Attention(m *catalog.Model, pp float64) *dsv4Attention {
	d := m.DSV4
	if d == nil {
		return nil
	}
	_, c4, c128 := d.LayersByRatio(0, m.NumLayers)
	return &dsv4Attention{
		layers: float64(m.NumLayers) / pp, c4: float64(c4) / pp, c128: float64(c128) / pp,
		window: float64(d.Window), topK: float64(d.IndexTopK),
		entryBytes: float64(d.EntryBytes()), idxEntryBytes: float64(d.IndexerEntryBytes()),
		idxPerPair: 2 * float64(d.IndexNHeads) * float64(d.IndexHeadDim),
	}
}

// attended is Σ over the stage's layers of the entries one decode query at
// context ctx attends to: the window on every layer, min(top-k, ctx/4) on
// C4A layers, ctx/128 on C128A layers.
func (a *dsv4Attention) attended(ctx float64) float64 {
	return a.layers*min(ctx, a.window) + a.c4*min(a.topK, ctx/4) + a.c128*ctx/128
}

// prefillPairs is Σ over the stage's layers of the (query, entry) pairs of
// prefill chunks with pairs causal query-key pairs over tokens queries.
func (a *dsv4Attention) prefillPairs(pairs, tokens float64) float64 {
	return a.layers*min(pairs, tokens*a.window) + a.c4*min(pairs/4, tokens*a.topK) + a.c128*pairs/128
}

// prefixEntries is Σ over the stage's layers of the cached entries the
// prefill chunks gather: each sequence's window, and its compressed
// entries (prefix/ratio).
func (a *dsv4Attention) prefixEntries(prefix, seqs float64) float64 {
	return a.layers*min(prefix, seqs*a.window) + (a.c4/4+a.c128/128)*prefix
}

// writtenEntries is the entries the stage writes for tokens new tokens: a
// window entry per layer and a compressed entry per ratio tokens.
func (a *dsv4Attention) writtenEntries(tokens float64) float64 {
	return tokens * (a.layers + a.c4/4 + a.c128/128)
}

// indexer is the C4A indexer's work: every decode query (and verified
// draft) scores its sequence's context/4 compressed keys, a prefill chunk's
// queries their causal share of them; it reads the keys once per step
// and writes one per 4 new tokens.
func (a *dsv4Attention) indexer(l RankLoad, spec int) (flops, bytes float64) {
	if a.c4 == 0 {
		return 0, 0
	}
	pairs := (l.DecodeCtx*float64(1+spec) + l.PrefillPairs) / 4
	keys := (l.DecodeCtx+l.PrefillPrefix)/4 + l.tokens(spec)/4
	return a.c4 * a.idxPerPair * pairs, a.c4 * a.idxEntryBytes * keys
}

// dsv4HeadsPerRank is the query heads one TP rank's FlashMLA call computes:
// the rank's heads padded to 64 or 128.
func dsv4HeadsPerRank(m *catalog.Model, tp int) float64 {
	h := (m.NumHeads + tp - 1) / max(tp, 1)
	if h <= 64 {
		return 64
	}
	return 128
}

// dsv4AttnCoef is the attention FLOPs per (query, entry) pair per layer on
// one TP rank: scores over head_dim and values of head_dim for the padded
// heads, 4 × heads × head_dim.
func dsv4AttnCoef(m *catalog.Model, tp int) float64 {
	return 4 * dsv4HeadsPerRank(m, tp) * float64(m.HeadDim)
}

// DecodeParts is a decode step's GPU terms split the way a kernel trace
// classifies them (an analysis view of StepRuns for one rank load; the
// step's own terms are unchanged): the dense GEMMs without the mHC, the
// mHC, the attention core without the indexer, the indexer alone, the
// routed experts, the kernel gaps and their kernels, the TP all-reduces
// and the host's exposed time.
type DecodeParts struct {
	DenseS, MHCS, AttentionS, IndexerS, ExpertS float64
	KernelGapsS, Kernels                        float64
	TPS, HostExposedS, GPUS, TotalS             float64
}

// DecodePartsAt is DecodeParts for conc sequences at context ctx (as
// DecodeAt spreads them).
func (sm *StepModel) DecodePartsAt(conc int, ctx float64) DecodeParts {
	_, st := sm.DecodeAt(conc, ctx)
	per := float64((conc + sm.S.replicas() - 1) / sm.S.replicas())
	per = float64(int(math.Ceil(per / float64(sm.S.DP))))
	l := RankLoad{DecodeSeqs: per, DecodeCtx: per * ctx}
	s := &sm.S
	mhc := sm.mhcTime(l.tokens(s.SpecTokens), nil)
	idxF, idxB := sm.indexerCost(l)
	idx := max(idxF/(s.indexerFLOPS()*s.Eff.Attention), idxB/(s.HW.HBMBytesPerS*s.Eff.HBM))
	gpu := st.TotalS - st.OverheadS
	return DecodeParts{
		DenseS: st.DenseS - mhc, MHCS: mhc, AttentionS: st.AttentionS - idx, IndexerS: idx, ExpertS: st.ExpertS,
		KernelGapsS: st.KernelGapsS, Kernels: st.Kernels, TPS: st.TPS, HostExposedS: st.OverheadS, GPUS: gpu, TotalS: st.TotalS,
	}
}

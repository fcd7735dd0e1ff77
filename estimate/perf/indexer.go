package perf

// indexerCost is the work of DeepSeek sparse attention's lightning indexer
// in one rank's step (zero for other models): every query scores every
// cached token of its sequence with index_n_heads heads of index_head_dim
// (2 × heads × dim FLOPs per query-key pair, run in FP8), reading the
// indexer's key cache of the whole context (catalog.IndexerCacheBytes per
// token and layer). Unlike the attention it selects for, which reads at most
// index_topk tokens, it grows with the full context. DeepSeek-V4's C4A
// indexer does the same over the compressed keys (dsv4Attention.indexer).
func (sm *StepModel) indexerCost(l RankLoad) (flops, bytes float64) {
	if sm.dsv4 != nil {
		return sm.dsv4.indexer(l, sm.S.SpecTokens)
	}
	if f, b, ok := sm.minimaxM3IndexerCost(l); ok {
		return f, b // MiniMax-M3: minimaxm3.go
	}
	m := sm.S.Model
	if !m.IsSparseAttention() {
		return 0, 0
	}
	perPair := 2 * float64(m.IndexNHeads) * float64(m.IndexHeadDim)
	pairs := l.DecodeCtx*float64(1+sm.S.SpecTokens) + l.PrefillPairs
	read := l.DecodeCtx + l.PrefillPrefix
	return sm.layers * perPair * pairs, sm.layers * float64(m.IndexerCacheBytes()) * read
}

// indexerFLOPS is the tensor peak the indexer's scores run at: FP8 where
// the GPU has FP8 tensor cores (vLLM's DSA path computes the logits in FP8).
func (s *StepSetup) indexerFLOPS() float64 {
	if s.HW.FP8FLOPS > 0 {
		return s.HW.FP8FLOPS
	}
	return s.HW.BF16FLOPS
}

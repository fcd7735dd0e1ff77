package perf

import "github.com/vlaunch/vlaunch/catalog"

// MiniMax-M3's sparse layers in the step model (catalog/minimaxm3.go for
// the vLLM source read at vllm-project/vllm@0443308a and 0484480b).
//
// Attention: each query of a sparse layer attends at most sparse_topk_blocks
// × sparse_block_size keys (16 × 128 = 2,048) per KV head, the forced init
// and local blocks among them (common/ops/index_topk.py _topk_index_kernel
// writes topk entries per query and index head), so the step model prices a
// sparse layer as a windowed one of that many tokens
// (catalog.Model.AttendedWindow; decode reads min(context, 2,048) tokens of
// K/V per sequence, prefill n × min((n + 1) / 2, 2,048) pairs) — the
// upper bound, first principles, no kernel measured.
//
// Indexer (minimaxM3IndexerCost): every query scores every cached index key
// of its sequence, max over each 128-token block
// (_index_block_score_kernel, _decode_index_score_kernel): 2 × index heads
// on the rank (= its KV heads, max(1, 4 / TP)) × sparse_index_dim FLOPs per
// query-key pair, reading the side cache of the whole context (sparse_index_dim
// × 2 B per token, bf16) per sparse layer — the DSA indexer's pricing
// (indexer.go), with MiniMax-M3's shapes. Its dots run in bf16 (Triton's
// tl.dot on the bf16 side cache), not DSA's FP8; the top-k selection's
// bitonic sort over the blocks is not priced. First principles, no
// MiniMax-M3 measurement behind any of it.

// minimaxM3IndexerCost is the indexer's work on one rank in one step, its
// FLOPs scaled so that the step's FP8 indexer peak (indexerFLOPS) prices
// them at the BF16 peak; ok is false for every other model.
func (sm *StepModel) minimaxM3IndexerCost(l RankLoad) (flops, bytes float64, ok bool) {
	m := sm.S.Model
	g := m.MiniMaxM3
	if g == nil {
		return 0, 0, false
	}
	layers := float64(m.MiniMaxM3SparseLayers(0, m.NumLayers)) / float64(max(sm.S.PP, 1))
	heads := float64(max(1, g.IndexHeads/max(sm.S.TP, 1)))
	perPair := 2 * heads * float64(g.IndexDim)
	pairs := l.DecodeCtx*float64(1+sm.S.SpecTokens) + l.PrefillPairs
	read := l.DecodeCtx + l.PrefillPrefix
	flops = layers * perPair * pairs
	if bf16, peak := sm.S.HW.BF16FLOPS, sm.S.indexerFLOPS(); bf16 > 0 && peak > bf16 {
		flops *= peak / bf16
	}
	return flops, layers * float64(m.MiniMaxM3IndexKeyBytes(2)) * read, true
}

// indexerParamsGPU is the indexer weights one GPU streams each step over
// all layers: DSA's replicated whole (p.Indexer), MiniMax-M3's index_q
// split like the KV heads with index_k replicated.
func indexerParamsGPU(m *catalog.Model, p catalog.ParamCounts, tp float64) float64 {
	if m.MiniMaxM3 == nil {
		return p.Indexer
	}
	return float64(m.MiniMaxM3SparseLayers(0, m.NumLayers)) * m.MiniMaxM3IndexerPerRank(int(tp))
}

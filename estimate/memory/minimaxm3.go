package memory

import (
	"fmt"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// MiniMax-M3's KV cache and indexer weights (catalog/minimaxm3.go for the
// vLLM source read). Each of the sparse layers registers, beside its GQA
// K/V (a FullAttentionSpec of the rank's KV heads), the indexer's side
// cache: an MLAAttentionSpec of num_kv_heads 1 × sparse_index_dim in bf16
// (MiniMaxM3IndexerCache.get_kv_cache_spec, vllm-project/vllm@0484480b
// vllm/models/minimax_m3/common/indexer.py; fp8 only under --attention-config
// indexer_kv_dtype fp8, which vlaunch does not write). Both specs take
// cache_config.block_size, and MLAAttentionSpec is a FullAttentionSpec, so
// vLLM's KV-cache manager puts every layer's caches in one group of one
// block size (UniformTypeKVCacheSpecs.is_uniform_type: one block size, all
// FullAttentionSpec; page = the sum of the layers' pages): a token costs
// the layers' K/V plus the sparse layers' index keys, as DeepSeek-V3.2's
// MLA and indexer caches do (kv.go).

// minimaxM3IndexerElemBytes is the side cache's element: vLLM's default
// indexer_kv_dtype is bf16 (vllm/config/attention.py AttentionConfig; the
// cache's own default, MiniMaxM3IndexerCache(indexer_kv_dtype="bf16")).
const minimaxM3IndexerElemBytes = 2

// minimaxM3KV fills kv for MiniMax-M3 on stage s: GQA K/V on every layer,
// the index key on the sparse ones.
func minimaxM3KV(in *input.Input, s Stage, kv *KVLayout, b int) {
	m := in.Model
	heads := int(KVHeadsPerRank(m, in.Layout.TP))
	kv.BytesPerTokenPerLayer = int64(2 * heads * m.HeadDim * b)
	kv.IndexerLayers = m.MiniMaxM3SparseLayers(s.First, s.End)
	idx := m.MiniMaxM3IndexKeyBytes(minimaxM3IndexerElemBytes)
	kv.Formula = fmt.Sprintf("2 (K,V) × %d KV heads per GPU × head_dim %d × %d B × %d layers + indexer key %d B (sparse_index_dim %d × 2 B, bf16, one head on every TP rank) × %d sparse layers",
		heads, m.HeadDim, b, kv.Layers, idx, m.MiniMaxM3.IndexDim, kv.IndexerLayers)
}

// minimaxM3IndexKeyBytes is the index keys one token adds on stage kv.
func minimaxM3IndexKeyBytes(m *catalog.Model, kv KVLayout) int64 {
	if m.MiniMaxM3 == nil {
		return 0
	}
	return int64(kv.IndexerLayers) * int64(m.MiniMaxM3IndexKeyBytes(minimaxM3IndexerElemBytes))
}

// minimaxM3IndexerShare is the stage's indexers on one GPU: index_q of the
// rank's index heads (sharded like the KV heads, replicated when TP
// exceeds them), index_k and the two index norms whole on every rank.
func minimaxM3IndexerShare(m *catalog.Model, pc catalog.ParamCounts, s Stage, tp int) Share {
	n := m.MiniMaxM3SparseLayers(s.First, s.End)
	g := m.MiniMaxM3
	return share(CompIndexer, pc.Indexer, float64(n)*m.MiniMaxM3IndexerPerRank(tp),
		fmt.Sprintf("%d sparse layers' indexers: index_q_proj %g of %d heads × %d per GPU (split like the KV heads over TP=%d), index_k_proj and the index norms replicated",
			n, float64(max(1, g.IndexHeads/max(tp, 1))), g.IndexHeads, g.IndexDim, tp))
}

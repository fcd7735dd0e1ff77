package catalog

// IndexCache is DSA's index sharing (GLM-5.2's "IndexShare"; vLLM calls it
// IndexCache, arXiv 2603.12201): only some layers run the lightning
// indexer, the others reuse the top-k indices of the last layer that did.
// vLLM builds no Indexer module in a sharing layer, so that layer has
// neither the indexer's weights nor its key cache
// (vllm/model_executor/models/deepseek_v2.py, DeepseekV2MLAAttention:
// "IndexCache config"; self.indexer = None when _skip_topk; read at the
// stored vllm-project/vllm commit 002d6073, the first release with it not
// read). A vLLM 0.26.0 start-up of a scaled GLM-5.2 config shows it in
// its KV bytes per token (published/vllm-memory-logs.yaml,
// glm52-dummy-pocketinfer-h800nvl32g-tp1).
type IndexCache struct {
	// Freq is index_topk_freq: every Freq-th layer (from Offset on)
	// keeps its indexer.
	Freq int `json:"index_topk_freq"`
	// Offset is index_skip_topk_offset (vLLM's default 2 when absent).
	Offset int `json:"index_skip_topk_offset"`
	// Pattern is index_topk_pattern, one letter per layer, "S" for a
	// sharing layer; it overrides Freq and Offset for the layers it covers.
	Pattern string `json:"index_topk_pattern,omitempty"`
}

// vllmIndexSkipOffset is vLLM's index_skip_topk_offset when the config has
// none (getattr(config, "index_skip_topk_offset", 2) in deepseek_v2.py).
const vllmIndexSkipOffset = 2

// indexCache reads the config's IndexCache fields; nil when every layer
// keeps its indexer (no pattern, a frequency of at most 1).
func (c *hfConfig) indexCache() *IndexCache {
	pattern := ""
	if c.IndexTopKPattern != nil {
		pattern = *c.IndexTopKPattern
	}
	if pattern == "" && c.IndexTopKFreq <= 1 {
		return nil
	}
	ic := &IndexCache{Freq: max(c.IndexTopKFreq, 1), Offset: vllmIndexSkipOffset, Pattern: pattern}
	if c.IndexSkipTopKOffset != nil {
		ic.Offset = *c.IndexSkipTopKOffset
	}
	return ic
}

// HasIndexer reports whether decoder layer i runs its own DSA indexer (and
// so holds its weights and its key cache), by vLLM's rule: with a pattern,
// the layer's letter is not "S" (layers past the pattern keep theirs);
// otherwise max(i − offset + 1, 0) is a multiple of the frequency. False
// for a model without DSA and for a negative index.
func (m *Model) HasIndexer(i int) bool {
	if !m.IsSparseAttention() || i < 0 {
		return false
	}
	ic := m.IndexCache
	if ic == nil {
		return true
	}
	if ic.Pattern != "" {
		return i >= len(ic.Pattern) || ic.Pattern[i] != 'S'
	}
	return max(i-ic.Offset+1, 0)%max(ic.Freq, 1) == 0
}

// IndexerLayers counts the layers in [first, end) that run their own
// indexer.
func (m *Model) IndexerLayers(first, end int) int {
	n := 0
	for i := first; i < end; i++ {
		if m.HasIndexer(i) {
			n++
		}
	}
	return n
}

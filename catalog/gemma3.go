package catalog

// Gemma 3 (gemma3_text, alone or in the gemma3 multimodal wrapper) as vLLM's
// vllm/model_executor/models/gemma3.py builds it: GQA attention with
// per-head q/k RMSNorm, a gated MLP, four RMSNorms per layer (input,
// post-attention, pre- and post-feedforward), tied embeddings; five of
// every six layers use sliding-window attention. Its published config.json
// leaves several values to transformers' Gemma3TextConfig defaults, which
// gemma3Defaults fills in (vocab_size 262,208, max_position_embeddings
// 131,072, tie_word_embeddings true, sliding_window_pattern 6).
//
// KV cache: the sliding-window layers are sized by the rule vlaunch
// applies to every sliding-window model (KVLayout.SequenceBytes): the window
// plus a prefill chunk per sequence, as vLLM's hybrid KV-cache manager
// allocates SlidingWindowSpec layers (max_memory_usage_bytes); vlaunch does
// not gate that rule by release.

// Gemma3TextConfig's defaults (transformers) that Gemma 3's published
// configs rely on.
const (
	gemma3Vocab          = 262208
	gemma3MaxPositions   = 131072
	gemma3SlidingPattern = 6
)

// gemma3Defaults fills what a gemma3_text config leaves to transformers'
// defaults; it runs before the field check.
func (c *hfConfig) gemma3Defaults() {
	if c.ModelType != "gemma3_text" {
		return
	}
	if c.VocabSize <= 0 {
		c.VocabSize = gemma3Vocab
	}
	if c.MaxPositionEmbeddings <= 0 {
		c.MaxPositionEmbeddings = gemma3MaxPositions
	}
	if c.TieWordEmbeddings == nil {
		t := true
		c.TieWordEmbeddings = &t
	}
	if len(c.LayerTypes) == 0 && c.NumHiddenLayers > 0 && c.NumHiddenLayers <= 10000 {
		every := c.SlidingWindowPattern
		if every <= 0 {
			every = gemma3SlidingPattern
		}
		c.LayerTypes = make([]string, c.NumHiddenLayers)
		for i := range c.LayerTypes {
			c.LayerTypes[i] = "sliding_attention"
			if (i+1)%every == 0 {
				c.LayerTypes[i] = "full_attention"
			}
		}
	}
}

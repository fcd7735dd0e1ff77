package memory

// SeqCost is one sequence's KV cost as a function of its length n, in the
// form every layout vLLM's KV cache manager allocates takes: a fixed part
// (per-sequence state pages, the extra block a sliding window keeps) plus,
// per cache group, its page bytes × the pages it holds for n tokens,
// ceil(min(n, Cap) / Block) — growing with the context for full attention
// (Cap 0), bounded by the window and the tokens in flight for a sliding
// window. KVLayout.Cost builds it and KVLayout.SequenceBytes evaluates it,
// so the capacity section and the simulation count a sequence alike at
// every length: sim.KVCost has the same shape, and the callers that run
// the simulation convert one to the other (sim.KVCost(r.SeqCost())), as
// package sim may not import memory (estimate/layers_test.go).
type SeqCost struct {
	Fixed int64
	Terms []KVTerm
	// TokenBytes is what one token of the pool (Report.KVTokensPerRank =
	// NumBlocks × block size) is worth in these bytes: the pool holds
	// KVTokensPerRank × TokenBytes (KVLayout.BytesPerToken).
	TokenBytes int64
}

// KVTerm is one cache group's part of SeqCost: Bytes per page of Block
// tokens, for at most Cap tokens (0: the whole sequence). It is an alias of
// the struct sim.KVTerm aliases too, which makes SeqCost convertible to
// sim.KVCost.
type KVTerm = struct {
	Bytes int64
	Block int
	Cap   int
}

// Bytes is a sequence of n tokens.
func (c SeqCost) Bytes(n int) int64 {
	b := c.Fixed
	for _, t := range c.Terms {
		k := n
		if t.Cap > 0 {
			k = min(k, t.Cap)
		}
		b += t.Bytes * int64(ceilDiv(k, max(t.Block, 1)))
	}
	return b
}

// Cost is the layout's SeqCost for blockSize-token blocks (the unpacked
// layouts' block; packed ones carry their own): see SequenceBytes.
func (kv KVLayout) Cost(blockSize int) SeqCost {
	blockSize = max(blockSize, 1)
	c := SeqCost{TokenBytes: kv.BytesPerToken}
	draft := func() {
		if kv.DraftBytesPerToken > 0 {
			c.Terms = append(c.Terms, KVTerm{Bytes: kv.DraftBytesPerToken * int64(blockSize), Block: blockSize})
		}
	}
	switch kv.Packing {
	case packingDSV4:
		kv.dsv4Cost(&c)
		draft()
		return c
	case packingUniformPage:
		kv.pack().cost(&c, kv.chunk, kv.StatePages)
		draft()
		return c
	}
	// The full-attention layers' bytes per token: BytesPerToken less the
	// sliding layers' (with IndexCache the layers' shares differ, so it is
	// not a multiple of BytesPerTokenPerLayer).
	// BytesPerToken holds the proposer's full-attention bytes already
	// (withDraft adds DraftBytesPerToken to it), so they are not added
	// again here.
	full := kv.BytesPerToken - int64(kv.SlidingLayers)*kv.BytesPerTokenPerLayer
	c.Fixed = kv.StateBytesPerSeq
	if b := full * int64(blockSize); b != 0 {
		// With DCP a GPU holds ceil(n / DCP) of a sequence's n tokens in
		// ceil(ceil(n / DCP) / block) = ceil(n / (block × DCP)) blocks: one
		// page here per block × DCP tokens of the sequence.
		c.Terms = append(c.Terms, KVTerm{Bytes: b, Block: blockSize * max(kv.DCP, 1)})
	}
	if kv.SlidingLayers > 0 {
		page := int64(kv.SlidingLayers) * kv.BytesPerTokenPerLayer * int64(blockSize)
		c.Fixed += page // the block beyond the window
		c.Terms = append(c.Terms, KVTerm{Bytes: page, Block: blockSize, Cap: kv.SlidingWindow - 1 + max(kv.chunk, 1)})
	}
	return c
}

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
	// Reserve is pool bytes a running count (KVLayout.RunCost) sets aside
	// for the prompt chunks in flight: a prefilling request's windowed
	// groups hold the chunk on top of the window until the step has run
	// (runningWindowCap). 0 for the start-up count (Cost) and for layouts
	// without a sliding window.
	Reserve int64
}

// UseWindowResidency makes the running count (KVLayout.RunCost: the
// capacity verdict EST103, the decode curve's KV mark, the simulation's
// admission) hold a sliding-window group at the window a decoding sequence
// keeps, with one shared reserve for the prompt chunks in flight, instead
// of vLLM's start-up per-request charge (window − 1 + the tokens in flight,
// which Cost keeps for the "Maximum concurrency" figure and the start-up
// check). vLLM's SlidingWindowManager frees every block that has left the
// window before it allocates the next step's slots
// (vllm/v1/core/single_type_kv_cache_manager.py
// SlidingWindowManager.remove_skipped_blocks @129ab7c6; the later copies'
// get_num_skipped_tokens, max(0, num_computed_tokens − sliding_window + 1),
// called from KVCacheManager.allocate_slots), so the start-up charge is a
// bound, not what a running sequence holds. Off: the running count is the
// start-up count, as before 2026-12-07.
var UseWindowResidency = true

// RunCost is what a running sequence holds of the pool at each length, as
// vLLM's scheduler admits and keeps it: full-attention groups every block,
// a windowed group the last window − 1 tokens plus the token each batch in
// flight decodes (one; from 0.26.0 one per batch vLLM keeps in flight,
// vllm.Release.SlidingWindowInFlight), in pages plus one, and Reserve for
// the prompt chunks a step prefills beyond that (at most the in-flight
// tokens of the rank, every windowed group). Cost is the start-up count.
func (kv KVLayout) RunCost(blockSize int) SeqCost {
	if !UseWindowResidency {
		return kv.Cost(blockSize)
	}
	kv.running = true
	return kv.Cost(blockSize)
}

// windowCap is the tokens a windowed group of window tokens holds per
// sequence beside its extra page: vLLM's start-up charge, window − 1 + the
// tokens in flight (SlidingWindowSpec.max_memory_usage_bytes), or, for the
// running count, window − 1 + one decode token per batch in flight. It
// adds the running count's share of the chunks in flight, bytes per page ×
// their pages, to c.Reserve.
func (kv KVLayout) windowCap(c *SeqCost, window int, bytes int64, block int) int {
	chunk := max(kv.chunk, 1)
	if !kv.running {
		return window - 1 + chunk
	}
	c.Reserve += bytes * int64(ceilDiv(chunk, max(block, 1)))
	return window - 1 + max(kv.batches, 1)
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
		kv.pack().cost(&c, kv, kv.StatePages)
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
		c.Terms = append(c.Terms, KVTerm{Bytes: page, Block: blockSize, Cap: kv.windowCap(&c, kv.SlidingWindow, page, blockSize)})
	}
	return c
}

// PrefixCacheable says vLLM's prefix cache can serve a prompt's cached
// prefix on this layout, as the simulation and check's idle prefills
// price it (workload.prefix_cache_hit_rate). Full-attention groups hit
// on every cached full block; a sliding-window group hits too, where the
// window's blocks before the hit point are cached
// (SlidingWindowManager.find_longest_cache_hit, and the hybrid
// coordinator intersecting the two kinds of group:
// vllm/v1/core/single_type_kv_cache_manager.py and kv_cache_coordinator.py
// at v0.11.0), which a shared prefix computed by earlier requests has.
// Not priced: a layout with per-request recurrent state (Mamba, Gated
// DeltaNet: StateBytesPerSeq), whose prefix caching depends on vLLM's
// mamba cache mode per release, and DeepSeek-V4's compressed caches,
// whose hits in vLLM were not read.
func (kv KVLayout) PrefixCacheable() bool {
	return kv.StateBytesPerSeq == 0 && kv.Packing != packingDSV4
}

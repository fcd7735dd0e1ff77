package memory

// HandoffSplit is what a finished prompt of n tokens holds in a packed
// DeepSeek-V4 layout, split as a KV hand-off moves it: perToken, the
// whole-sequence caches' bytes per token (every page of them held, so the
// prompt's share is perToken × n in whole pages), and perSeq, the windowed
// caches' pages, held once per sequence whatever its length past the
// window. It is the running count (RunCost without its Reserve): a prompt
// whose prefill has finished holds no chunk in flight, so neither the
// start-up charge's window − 1 + max_num_batched_tokens tokens nor
// BytesPerToken (one max_model_len sequence over max_model_len, which
// amortises that charge) describes it. ok is false for every other
// layout, whose BytesPerToken is already per token.
func (kv KVLayout) HandoffSplit(n int) (perToken float64, perSeq int64, ok bool) {
	if kv.Packing != packingDSV4 {
		return 0, 0, false
	}
	kv.running = true
	var c SeqCost
	kv.dsv4Cost(&c)
	perSeq = c.Fixed
	for _, t := range c.Terms {
		if t.Cap == 0 {
			perToken += float64(t.Bytes) / float64(max(t.Block, 1))
			continue
		}
		perSeq += t.Bytes * int64(ceilDiv(min(max(n, 0), t.Cap), max(t.Block, 1)))
	}
	// The proposer's layers (withDraft) are per token like any other.
	perToken += float64(kv.DraftBytesPerToken)
	return perToken, perSeq, true
}

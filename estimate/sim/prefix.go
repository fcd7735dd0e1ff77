package sim

// A workload's prefix cache hit rate (Config.PrefixHitRate,
// workload.prefix_cache_hit_rate): a share of every prompt that a prefix
// the engine has cached already (a system prompt, a shared document)
// serves. What vLLM's V1 engine computes of such a prompt
// (vllm/v1/core/kv_cache_manager.py get_computed_blocks, read in a copy
// of the 0.11 tree, Yuran-7/vllm-0.11: "When all tokens hit the cache, we
// must recompute the last token to obtain logits. Thus, set
// max_cache_hit_length to prompt_length - 1", then
// find_longest_cache_hit over the request's block hashes, which cover
// full blocks only): the tokens after the longest run of cached full
// blocks, at most prompt − 1 tokens of them cached. So a request's first
// floor(rate × prompt) tokens, rounded down to whole blocks of the first
// cache group and at most prompt − 1, are not computed (PromptHit); its
// computed chunks still attend over them (the step's PrefillPrefix).
//
// Their KV blocks: the simulator counts them as taken by the request
// (as historyHit's hits in the free queue), not held once per rank. The
// rate says nothing of how many distinct prefixes serve it: one system
// prompt shared by every running request would be held once (its
// blocks' ref_cnt above 1), one per user would be held per request, so
// counting them per request is the conservative choice — admission and
// preemption are as without the hit, only the compute is saved. Which
// layouts the rate applies to is the caller's decision
// (memory.KVLayout.PrefixCacheable, estimate/slo's prefixHitRate): the
// simulator applies the rate it is given. Until December 2026 it also
// dropped the rate for any layout with a fixed part (KVCost.Fixed), which
// caught sliding-window layers' extra page as well as a hybrid's state,
// so gpt-oss's hits were described by check and not simulated (qa43 F1);
// vLLM's SlidingWindowManager serves them. History hits (tokensWithin)
// still leave out layouts with a fixed part.

// PromptHit is how many of a prompt of n tokens a cached prefix serves
// at hit rate rate with blocks of block tokens: floor(rate × n) rounded
// down to whole blocks, at most n − 1 (0 for rate ≤ 0 or n < 2).
func PromptHit(n, block int, rate float64) int {
	if rate <= 0 || n < 2 || block < 1 {
		return 0
	}
	t := min(int(rate*float64(n)), n-1)
	return t / block * block
}

// prefixHit is how many of waiting request r's prompt tokens the
// workload's cached prefix serves (Config.PrefixHitRate): PromptHit of
// the prompt it was sent with (its history and input; a preempted
// request finds the same prefix again), at most its prompt − 1.
//
// A request drawn cached (Config.CachedShare) finds its whole prompt:
// PromptHit at rate 1, its last full block below the last token. The
// caller answers for the layout's hits, for the rate as for the draw
// (estimate/slo's prefixHitRate, memory.KVLayout.PrefixCacheable;
// estimate/pd draws only for pools with no recurrent state), so a fixed
// part of the KV cost does not refuse them here: a sliding window's page beyond the window is one too
// (memory.KVLayout.RunCost), and vLLM's sliding-window layers serve prefix
// hits (vllm/v1/core/single_type_kv_cache_manager.py,
// SlidingWindowManager.find_longest_cache_hit).
func (s *simulator) prefixHit(r *simReq) int {
	if !s.cfg.PrefixCaching || len(s.kv.terms) == 0 {
		return 0
	}
	rate := s.cfg.PrefixHitRate
	if r.cached {
		rate = 1
	}
	if rate <= 0 {
		return 0
	}
	return min(PromptHit(r.hist+r.input, s.kv.terms[0].block, rate), r.prompt-1)
}

package slo

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// prefixHitRate is the workload's prefix cache hit rate the predictions
// apply (sim.Config.PrefixHitRate): workload.prefix_cache_hit_rate where
// vLLM's prefix caching is on (prefixCaching) and its KV layout is one
// whose hits are priced (memory.KVLayout.PrefixCacheable: not a hybrid's
// Mamba or Gated DeltaNet state, not DeepSeek-V4's compressed caches);
// else 0. The simulator applies the rate it is given (sim's prefixHit),
// so this is the one place that decides where a rate applies.
func prefixHitRate(in *input.Input) float64 {
	r := in.Workload.PrefixCacheHitRate
	if r <= 0 || in.Model == nil || !prefixCaching(in) || !prefixCacheable(in) {
		return 0
	}
	return r
}

// prefixCacheable is memory.KVLayout.PrefixCacheable of the whole model's
// KV layout.
func prefixCacheable(in *input.Input) bool {
	return memory.KVBytes(in, memory.Stage{First: 0, End: in.Model.NumLayers}).PrefixCacheable()
}

// PrefixHitRate is prefixHitRate for another package's pools (estimate/pd's
// prefill pool): the workload's prefix cache hit rate the simulation
// applies, 0 where caching is off or the layout's hits are not priced
// (memory.KVLayout.PrefixCacheable).
func PrefixHitRate(in *input.Input) float64 { return prefixHitRate(in) }

// ComputedPrompt is computedPrompt for another package's pools: how many of
// a prompt of n tokens a request computes once the workload's cached
// prefix serves its share.
func ComputedPrompt(in *input.Input, n int) int { return computedPrompt(in, n) }

// computedPrompt is how many of a prompt of n tokens a request computes
// once the cached prefix serves its share (sim.PromptHit: whole blocks, at
// most n − 1): what check's idle prefills (idlePrefill, which charges the
// computed tokens' attention over the cached prefix as the simulation
// does) and TTFT floors (bestTTFT, a fresh prompt of this length: a lower
// bound) price. Blocks are the simulator's first cache group's: block_size
// tokens, times the DCP size with decode context parallelism (a GPU
// holds one block per block × DCP tokens, memory.SeqCost; vLLM hashes
// blocks of that size then: vllm/v1/core/sched/scheduler.py and
// kv_cache_manager.py multiply block_size by dcp_world_size, read in the
// same copy of the 0.11 tree as sim's prefix.go).
func computedPrompt(in *input.Input, n int) int {
	return n - sim.PromptHit(n, max(1, in.BlockSize)*in.DCPSize(), prefixHitRate(in))
}

// prefixHitNote says what check applied of workload.prefix_cache_hit_rate:
// the rate, the share of the workload's prompt a request computes, and
// the share of prompt tokens the simulation served from the cache ("" for
// no rate; why none applies where caching is off or the model keeps state
// pages).
func prefixHitNote(in *input.Input, p *Performance) string {
	r := in.Workload.PrefixCacheHitRate
	if r <= 0 {
		return ""
	}
	switch {
	case in.Model == nil:
		return ""
	case !prefixCaching(in):
		return fmt.Sprintf("workload.prefix_cache_hit_rate %g has no effect: prefix caching is off, so every prompt token is computed", r)
	case prefixHitRate(in) <= 0:
		return fmt.Sprintf("workload.prefix_cache_hit_rate %g is not applied: this model's KV cache (per-request recurrent state pages, or DeepSeek-V4's compressed caches) is one whose prefix-cache hits vlaunch does not price, so every prompt token is computed", r)
	}
	n := max(1, in.Workload.InputTokens)
	c := computedPrompt(in, n)
	block := max(1, in.BlockSize) * in.DCPSize()
	note := fmt.Sprintf("prefix cache hit rate %g (workload.prefix_cache_hit_rate, vLLM's prefix caching on): a %d-token prompt finds its first %d tokens cached "+
		"(%g × %d rounded down to whole %d-token blocks, at most the prompt less its last token) and computes %d (%.0f%%); the cached blocks still count "+
		"against each request's KV (held per request, not once per rank: conservative)", r, n, n-c, r, n, block, c, 100*float64(c)/float64(n))
	if s := p.sim(in.Workload.InputTokens); s != nil && s.Result.PromptCached > 0 {
		note += fmt.Sprintf("; the simulation served %.0f%% of its prompt tokens from the cache", 100*s.Result.PromptCached)
	}
	return note
}

// prefixHitText is the TTFT explanation's clause on the cached prefix of a
// prompt of n tokens ("" when none is cached).
func prefixHitText(in *input.Input, n int) string {
	c := computedPrompt(in, n)
	if c >= n {
		return ""
	}
	return fmt.Sprintf(" (it computes %d of its %d tokens: prefix cache hit rate %g serves the first %d, whole blocks)", c, n, in.Workload.PrefixCacheHitRate, n-c)
}

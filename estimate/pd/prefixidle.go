package pd

import "github.com/vlaunch/vlaunch/estimate/perf"

// cached is how many of a prompt of n tokens the pool's prefix cache
// serves in the mean (n less uncached): the prefix its computed tokens
// start after and attend over.
func (p *Pool) cached(n int) int { return max(1, n) - p.uncached(max(1, n)) }

// idlePrefill is the pool's idle prefill of a prompt of n tokens, as
// estimate/slo's idlePrefill prices the colocated one: the cached prefix
// (workload.prefix_cache_hit_rate and the pool's prompt reuse, cached) is
// not computed, but vLLM starts the request at the hit and the new tokens
// attend over the whole context (perf.StepModel.PrefillIdleCached).
// Pricing the new tokens as a fresh prompt of their own length left out
// their attention to the prefix. With nothing cached it is PrefillIdle(n).
func (p *Pool) idlePrefill(n int) perf.PrefillPoint {
	n = max(1, n)
	return p.sm.PrefillIdleCached(n, p.cached(n), max(1, p.in.MaxNumBatchedTokens))
}

// prefillChunkLoad is a rank's load for one chunk of c prompt tokens after
// prefix tokens (cached or computed in earlier chunks), k prompts alike;
// final says the chunks end their prompts (RankLoad.PrefillFinal: under
// PP each such chunk is one micro-batch, vLLM never splitting a request's
// scheduled tokens). As the simulator builds a step's load (sim addToLoad).
func prefillChunkLoad(k, c, prefix float64, final bool) perf.RankLoad {
	l := perf.RankLoad{PrefillTokens: k * c, PrefillSeqs: k, PrefillPrefix: k * prefix, PrefillPairs: k * c * (prefix + (c+1)/2)}
	if final {
		l.PrefillFinal = k
	}
	return l
}

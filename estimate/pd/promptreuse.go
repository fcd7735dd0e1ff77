package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
)

// UsePromptReuse prices a client that sends prompts an engine already
// holds in its prefix cache (PromptReuse; the replay's rows only:
// ClientSweeps). Off: every prompt is new to both pools, as before
// December 2026.
var UsePromptReuse = true

// PromptReuse is the share of a run's requests whose prompt each pool's
// engine that serves it still holds in vLLM's prefix cache when the
// request arrives (0 to 1 each).
//
// What vLLM does with such a request (v0.11.0, the release of the rows
// that carry reuse): the prefill engine finds the prompt's full blocks
// below its last token cached (vllm/v1/core/kv_cache_manager.py
// get_computed_blocks: at most prompt − 1 tokens, whole blocks) and
// computes only the tokens after them; the decode engine's scheduler
// finds the same blocks cached locally and asks NixlConnector for the
// rest only (vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py
// get_num_new_matched_tokens: len(prompt) − num_computed_tokens), whose
// worker then reads only the remote blocks it lacks (_read_blocks: "Partial
// prefix cache hit: just read uncomputed blocks"), and the decode engine
// caches the blocks it read (vllm/v1/core/sched/scheduler.py
// _update_waiting_for_remote_kv: cache_blocks), which is why it holds a
// prompt it was sent before.
//
// The prefill pool's simulation draws each request cached or not
// (UseCachedDraw, sim.Config.CachedShare): a cached prompt computes its
// last few tokens, attending over the cached prefix, a new one all of
// them, in one queue. The analytic parts (the pool's capacity, the
// hand-off, the decode pool's admission) price reuse in the mean
// (uncached): every request computes, and reads, the mean share of the
// prompt its pool's cache does not serve, which keeps the work per request
// and so each pool's capacity right.
type PromptReuse struct {
	Prefill float64 `json:"prefill"`
	Decode  float64 `json:"decode"`
}

// cachedPrefix is the most of a prompt of n tokens vLLM's prefix cache
// serves: the full blocks of block tokens below its last token (the last
// token is always computed, so the engine has logits to sample from).
func cachedPrefix(n, block int) int {
	if n <= 1 {
		return 0
	}
	b := max(1, block)
	return (n - 1) / b * b
}

// uncached is how many of a prompt of n tokens the pool computes (prefill)
// or reads from the prefill pool (decode) in the mean: n less its share of
// requests whose prompt it holds (Pool.reuse) times the prompt's cacheable
// prefix. n when neither reuse nor a hit rate applies (off, zero, or the
// engine runs without prefix caching).
//
// The workload's prefix cache hit rate (Pool.hitRate, the prefill pool's)
// serves its share of every prompt first (slo.ComputedPrompt, as the
// colocated path prices it); a request whose whole prompt is held finds
// the rest of its cacheable prefix too.
func (p *Pool) uncached(n int) int {
	hit := 0
	if p.hitRate > 0 {
		hit = n - slo.ComputedPrompt(p.in, n)
	}
	if UsePromptReuse && p.reuse > 0 && p.prefixCaching() {
		whole := cachedPrefix(n, p.in.BlockSize)
		hit += int(math.Round(min(1, p.reuse) * float64(max(0, whole-hit))))
	}
	return max(1, n-hit)
}

// prefixCaching says the pool's engines run vLLM's automatic prefix
// caching (check's rule, slo.ApplyEngine: on by default with the V1
// engine, the last --[no-]enable-prefix-caching of vllm.extra_args decides).
func (p *Pool) prefixCaching() bool {
	var c sim.Config
	slo.ApplyEngine(p.in, p.sm.S.Eff, &c)
	return c.PrefixCaching
}

// UseCachedDraw runs the prefill pool's simulation with each request drawn
// cached or new (sim.Config.CachedShare at the pool's PromptReuse share)
// instead of every request at the mean uncached share of its prompt: the
// client's runs sent the prompts of the runs before them again in a
// shuffled order (vLLM 0.11.0's PrefixRepetitionRandomDataset shuffles the
// prompts it drew: ClientSweeps), so the cached and the new prompts of a
// run reach the one prefill queue interleaved, a new prompt's ~5,000-token
// step delaying the cached ones behind it. Every request's API server
// tokenizes its whole prompt either way. Off: the mean share, as before
// December 2026's pd43.
var UseCachedDraw = true

// prefillDraw is how the prefill pool's simulation runs prompts of n
// tokens: the tokens each request is given and the share of requests
// drawn wholly cached (sim.Config.CachedShare). With UseCachedDraw and
// reuse: n and the pool's share; else the mean uncached tokens and none.
// A layout whose hits vlaunch does not price (memory.KVLayout.
// PrefixCacheable: a hybrid's Mamba or linear-attention pages,
// DeepSeek-V4's compressed caches) is never drawn: the simulator does not check the hits it is told
// of (sim.Config.CachedShare), and vLLM 0.11's prefix cache serves such
// layouts no whole prompt.
//
// rate is the workload's prefix cache hit rate the simulation applies to
// every prompt (sim.Config.PrefixHitRate, Pool.hitRate): with it the run
// gets whole prompts, as the colocated path's does, unless reuse is priced
// in the mean (UseCachedDraw off), whose tokens hold the rate's hit too.
func (p *Pool) prefillDraw(n int) (tokens int, share, rate float64) {
	switch {
	case UseCachedDraw && UsePromptReuse && p.reuse > 0 && p.prefixCaching() && p.Memory.KV.PrefixCacheable():
		return n, min(1, p.reuse), p.hitRate
	case p.hitRate > 0 && !(UsePromptReuse && p.reuse > 0):
		return n, 0, p.hitRate
	}
	return p.uncached(n), 0, 0
}

// UsePrefixHitRateInPD applies workload.prefix_cache_hit_rate to a
// disaggregated deployment's prefill pool (prefixRate). Off: neither pool
// reads it, as before December 2026's pd43 (validate's SPEC140 said so
// and plan tried no P/D candidate with a rate).
var UsePrefixHitRateInPD = true

// prefixRate is the workload's prefix cache hit rate a pool of role
// applies. The prefill pool: slo.PrefixHitRate, as a colocated engine
// applies it (vLLM's prefill engine looks its prompt up in its own prefix
// cache, vllm/v1/core/kv_cache_manager.py get_computed_blocks, and computes
// the rest). The decode pool: none. Its engine computes no prompt anyway;
// its read would shrink only where it holds the prefix too (the scheduler
// asks NixlConnector for len(prompt) − the tokens its own cache serves,
// nixl_connector.py get_num_new_matched_tokens, v0.11.0), which the rate
// does not say (a prefix cached on the prefill engines need not be on the
// decode engine a request lands on), so the hand-off is priced whole: a
// bound from above on its time.
//
// The simulator serves the rate's hits only on a layout with no fixed KV
// part (estimate/sim prefix.go), so for a sliding-window model (gpt-oss)
// the prefill pool's runs compute whole prompts while its capacity and
// plan's bound apply the rate: the colocated path's own disagreement
// (slo's computedPrompt against its simulation), kept alike here so that
// plan compares like with like until it is settled there.
func prefixRate(role string, in *input.Input) float64 {
	if !UsePrefixHitRateInPD || role != spec.RolePrefill {
		return 0
	}
	return slo.PrefixHitRate(in)
}

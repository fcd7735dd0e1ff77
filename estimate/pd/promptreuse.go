package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
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
// The pools' simulations run one prompt length, so reuse is priced in the
// mean (reusedTokens): every request computes, and reads, the mean share
// of the prompt its pool's cache does not serve. The work per request and
// so each pool's capacity are right; TTFT's spread is not (the hits and
// misses of a real run are two populations), and the prefix the hit
// chunks attend over is not charged (attention is ~7% of a 5,000-token
// gpt-oss-120b prefill step on H100 TP4).
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
// prefix. n when reuse is off, zero, or the engine runs without prefix
// caching.
func (p *Pool) uncached(n int) int {
	if !UsePromptReuse || p.reuse <= 0 || !p.prefixCaching() {
		return n
	}
	hit := int(math.Round(min(1, p.reuse) * float64(cachedPrefix(n, p.in.BlockSize))))
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

package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestPromptHit: floor(rate × n) rounded down to whole blocks, at most
// n − 1 (vLLM recomputes a fully cached prompt's last token), by hand.
func TestPromptHit(t *testing.T) {
	for _, c := range []struct {
		n, block int
		rate     float64
		want     int
	}{
		{1000, 16, 0.5, 496},  // 500 → 31 blocks
		{2048, 16, 0.5, 1024}, // 1,024: 64 whole blocks
		{2048, 16, 0.3, 608},  // 614 → 38 blocks
		{100, 16, 0.999, 96},  // 99 (n − 1) → 6 blocks
		{16, 16, 0.99, 0},     // 15 (n − 1): no whole block
		{1000, 16, 0, 0},
		{1, 16, 0.9, 0},
		{1000, 0, 0.5, 0},
	} {
		if got := PromptHit(c.n, c.block, c.rate); got != c.want {
			t.Errorf("PromptHit(%d, %d, %g) = %d, want %d", c.n, c.block, c.rate, got, c.want)
		}
	}
}

// prefixCfg is one closed-loop session of 1,000-token prompts and one
// output token each (the request ends at its prompt's last step), on a
// step model that charges 1 ms plus 0.1 ms per prefilled token: each
// request is one step, 101 ms with every token computed.
func prefixCfg(rate float64, caching bool) Config {
	return Config{DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 1 << 20, KVTokensPerRank: 1 << 20, BlockSize: 16,
		InputTokens: 1000, OutputTokens: 1, Sessions: 1, Pool: 20, Seed: 1, PrefixCaching: caching, PrefixHitRate: rate,
		Step: func(l []perf.RankLoad) float64 { return 1e-3 + 1e-4*l[0].PrefillTokens }}
}

// TestPrefixHitRatePrefills: at rate 0.5 with 16-token blocks each prompt
// of 1,000 tokens finds its first 496 cached (500 rounded down to 31
// blocks) and prefills 504, attending over a 496-token prefix; the
// simulation reports 49.6% of prompt tokens cached. Caching off, or rate
// 0: all 1,000 are prefilled, as before.
func TestPrefixHitRatePrefills(t *testing.T) {
	var seen []perf.RankLoad
	cfg := prefixCfg(0.5, true)
	step := cfg.Step
	cfg.Step = func(l []perf.RankLoad) float64 {
		if l[0].PrefillTokens > 0 {
			seen = append(seen, l[0])
		}
		return step(l)
	}
	res := Run(cfg)
	if len(seen) == 0 {
		t.Fatal("no prefill step")
	}
	for _, l := range seen {
		if l.PrefillTokens != 504 || l.PrefillPrefix != 496 {
			t.Fatalf("prefilled %v tokens over a %v-token prefix, want 504 over 496", l.PrefillTokens, l.PrefillPrefix)
		}
	}
	if math.Abs(res.PromptCached-0.496) > 1e-12 {
		t.Errorf("PromptCached %v, want 496 / 1,000", res.PromptCached)
	}
	for _, c := range []Config{prefixCfg(0.5, false), prefixCfg(0, true)} {
		got, r := prefills(c)
		for _, n := range got {
			if n != 1000 {
				t.Fatalf("rate %g caching %v: prefilled %v, want 1,000 each", c.PrefixHitRate, c.PrefixCaching, got)
			}
		}
		if r.PromptCached != 0 {
			t.Errorf("rate %g caching %v: PromptCached %v, want 0", c.PrefixHitRate, c.PrefixCaching, r.PromptCached)
		}
	}
}

// TestPrefixHitRateFaster: the cached half makes each request's one step
// 1 + 0.1 × 504 = 51.4 ms instead of 101 ms, so TTFT falls and the
// prefill-bound loop's throughput rises by 101 / 51.4 = 1.965×; and rate
// 0 with caching on runs exactly as caching off.
func TestPrefixHitRateFaster(t *testing.T) {
	base, hit, off := Run(prefixCfg(0, true)), Run(prefixCfg(0.5, true)), Run(prefixCfg(0.5, false))
	if math.Abs(base.TTFT.P50-0.101) > 1e-9 || math.Abs(hit.TTFT.P50-0.0514) > 1e-9 {
		t.Errorf("TTFT p50 %v at rate 0, %v at 0.5: want 0.101 and 0.0514 s", base.TTFT.P50, hit.TTFT.P50)
	}
	if r := hit.OutputTokPerS / base.OutputTokPerS; math.Abs(r-101/51.4) > 0.01 {
		t.Errorf("throughput %v at 0.5 vs %v at 0: ratio %v, want 101 / 51.4 = %.3f", hit.OutputTokPerS, base.OutputTokPerS, r, 101/51.4)
	}
	if off.OutputTokPerS != base.OutputTokPerS || off.TTFT != base.TTFT {
		t.Errorf("caching off at rate 0.5 (%v, %v) differs from rate 0 (%v, %v)", off.OutputTokPerS, off.TTFT, base.OutputTokPerS, base.TTFT)
	}
}

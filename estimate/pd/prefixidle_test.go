package pd

import "testing"

// TestPrefillPoolPricesTheCachedPrefix: at prefix_cache_hit_rate 0.5 the
// prefill pool's idle prefill of a 4,100-token prompt (2,048 cached, 2,052
// computed) is shorter than the fresh prompt's but longer than a fresh
// prompt of the 2,052 new tokens alone (they attend over the cached
// prefix, as estimate/slo's idlePrefill prices them); so is the step that
// finishes it (lastChunkS), and the pool's capacity sits between the two
// fresh prompts'. With no hit nothing changes: idlePrefill is PrefillIdle.
func TestPrefillPoolPricesTheCachedPrefix(t *testing.T) {
	c := propertyBases[0] // Llama-3.1-70B, 2 × TP4 : TP8 on H100
	c.in, c.out, c.conc, c.version, c.maxLen = 4100, 128, 16, "0.11.0", 8192
	c.gbit, c.nics, c.latUs = 400, 8, 2
	pre, _ := c.inputs(t)
	fresh := PrefillBound(&pre).Pool
	p := pre
	p.Workload.PrefixCacheHitRate = 0.5
	hit := PrefillBound(&p).Pool
	n := 4100
	u := hit.uncached(n)
	if u != 2052 || hit.cached(n) != 2048 {
		t.Fatalf("hit: %d computed, %d cached of %d; want 2,052 and 2,048", u, hit.cached(n), n)
	}
	chunk := max(1, p.MaxNumBatchedTokens)
	whole, alone, got := hit.sm.PrefillIdle(n, chunk).TTFTS, hit.sm.PrefillIdle(u, chunk).TTFTS, hit.idlePrefill(n).TTFTS
	t.Logf("idle prefill: new tokens alone %.2f ms, cached %.2f ms, fresh %.2f ms", 1e3*alone, 1e3*got, 1e3*whole)
	if !(alone < got && got < whole) {
		t.Errorf("idle prefill %.2f ms, want between the new tokens alone %.2f ms and the fresh prompt %.2f ms", 1e3*got, 1e3*alone, 1e3*whole)
	}
	if f := fresh.idlePrefill(n).TTFTS; f != whole {
		t.Errorf("no hit: idle prefill %.4f ms, want PrefillIdle's %.4f ms", 1e3*f, 1e3*whole)
	}
	last := lastChunkS(&hit, n)
	if lastAlone, lastWhole := lastChunkS(&fresh, u), lastChunkS(&fresh, n); !(lastAlone < last && last <= lastWhole) {
		t.Errorf("last chunk %.2f ms, want above the new tokens alone %.2f ms, at most the fresh prompt's %.2f ms", 1e3*last, 1e3*lastAlone, 1e3*lastWhole)
	}
	budget, seqs := p.MaxNumBatchedTokens, p.MaxNumSeqs
	capHit := prefillRankRate(hit.sm, u, hit.cached(n), budget, seqs)
	capWhole, capAlone := prefillRankRate(hit.sm, n, 0, budget, seqs), prefillRankRate(hit.sm, u, 0, budget, seqs)
	if !(capWhole < capHit && capHit < capAlone) {
		t.Errorf("rank rate %.2f/s, want between the fresh prompt's %.2f/s and the new tokens alone %.2f/s", capHit, capWhole, capAlone)
	}
}

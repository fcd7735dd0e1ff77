package sim

import (
	"testing"
)

// cachedCfg is prefixCfg's one session of 1,000-token prompts, 400 of
// them, with a share of requests drawn wholly cached (Config.CachedShare)
// and no cached prefix rate.
func cachedCfg(share float64, caching bool) Config {
	cfg := prefixCfg(0, caching)
	cfg.Pool, cfg.CachedShare = 400, share
	return cfg
}

// TestCachedShareDraws: each request is either cached whole (it prefills
// the 8 tokens after its last full 16-token block below its last token,
// 992 cached) or new (all 1,000), never a share of its prompt; about
// CachedShare of them are cached (a binomial draw of 400: within ±0.08 of
// 0.3 is over four standard deviations). Caching off or share 0: every
// request prefills its whole prompt, as before the field existed.
func TestCachedShareDraws(t *testing.T) {
	got, res := prefills(cachedCfg(0.3, true))
	cached := 0
	for _, n := range got {
		switch n {
		case 8:
			cached++
		case 1000:
		default:
			t.Fatalf("a request prefilled %d tokens, want 8 (cached) or 1,000 (new)", n)
		}
	}
	if len(got) != 400 {
		t.Fatalf("%d prefills, want 400", len(got))
	}
	if share := float64(cached) / 400; share < 0.22 || share > 0.38 {
		t.Errorf("%.2f of the requests cached, want about 0.3", share)
	}
	if want := float64(cached) * 992 / 400 / 1000; res.PromptCached < want-1e-9 || res.PromptCached > want+1e-9 {
		t.Errorf("PromptCached %v, want %v (the cached requests' 992 of 1,000 tokens)", res.PromptCached, want)
	}
	for _, c := range []Config{cachedCfg(0.3, false), cachedCfg(0, true)} {
		got, _ := prefills(c)
		for _, n := range got {
			if n != 1000 {
				t.Fatalf("share %g caching %v: a request prefilled %d tokens, want 1,000", c.CachedShare, c.PrefixCaching, n)
			}
		}
	}
}

// TestCachedShareWithFixedPages: a layout with a fixed part per sequence
// (a sliding window's page beyond the window, or a hybrid's state) gets
// the hits it is told of, from workload.prefix_cache_hit_rate (prefix.go:
// 1,000-token prompts at 0.5 compute 504, whole 16-token blocks) as from
// a request drawn cached: the caller (estimate/slo's prefixHitRate,
// estimate/pd) answers for the layout (memory.KVLayout.PrefixCacheable).
func TestCachedShareWithFixedPages(t *testing.T) {
	kv := KVCost{Fixed: 64, TokenBytes: 4, Terms: []KVTerm{{Bytes: 64, Block: 16}}}
	rate := prefixCfg(0.5, true)
	rate.KV = kv
	if got, _ := prefills(rate); len(got) == 0 || got[0] != 504 {
		t.Fatalf("prefix_cache_hit_rate 0.5 over fixed pages: prefills %v, want 504 each", got)
	}
	drawn := cachedCfg(1, true)
	drawn.KV = kv
	got, _ := prefills(drawn)
	for _, n := range got {
		if n != 8 {
			t.Fatalf("CachedShare 1 over fixed pages: a request prefilled %d tokens, want 8", n)
		}
	}
}

package pd

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/vllm"
)

// workload.prefix_cache_hit_rate in a P/D deployment (prefixRate, pd43):
// the prefill pool computes what the cached prefix leaves (4,100 tokens at
// rate 0.5: 2,048 cached, 2,052 computed, as the colocated path prices it),
// so its capacity about doubles and TTFT falls; the decode pool reads the
// whole prompt's KV; the plan's bound rises with the capacity and stays
// above it; off (UsePrefixHitRateInPD) or with prefix caching off, nothing
// moves.
func TestPrefixHitRateInPD(t *testing.T) {
	c := propertyBases[0] // Llama-3.1-70B, 2 × TP4 : TP8 on H100
	c.in, c.out, c.conc, c.version, c.maxLen = 4100, 128, 16, "0.11.0", 8192
	c.gbit, c.nics, c.latUs = 400, 8, 2
	pre, dec := c.inputs(t)
	run := func(rate float64) Report {
		p, d := pre, dec
		p.Workload.PrefixCacheHitRate, d.Workload.PrefixCacheHitRate = rate, rate
		r, _ := evaluatePD(&p, &d, false, "", false, vllm.NixlHandoff(), 0, PromptReuse{}, slo.Options{Seed: 1})
		return r
	}
	base, hit := run(0), run(0.5)
	if hit.Prefill.hitRate != 0.5 || hit.Decode.hitRate != 0 {
		t.Fatalf("hit rates: prefill %g, decode %g; want 0.5, 0", hit.Prefill.hitRate, hit.Decode.hitRate)
	}
	if got := hit.Prefill.uncached(4100); got != 2052 {
		t.Errorf("prefill pool computes %d of 4,100 tokens, want 2,052", got)
	}
	b, h := base.Scenario(4100), hit.Scenario(4100)
	if ratio := hit.Prefill.CapacityPerS / base.Prefill.CapacityPerS; ratio < 1.7 || ratio > 2.3 {
		t.Errorf("prefill capacity %.2f -> %.2f requests/s (×%.2f), want about ×2", base.Prefill.CapacityPerS, hit.Prefill.CapacityPerS, ratio)
	}
	if !(h.TTFTParts.PrefillS < b.TTFTParts.PrefillS && h.TTFT.Mean < b.TTFT.Mean) {
		t.Errorf("prefill %.1f -> %.1f ms, TTFT %.1f -> %.1f ms: want both lower", 1e3*b.TTFTParts.PrefillS, 1e3*h.TTFTParts.PrefillS, 1e3*b.TTFT.Mean, 1e3*h.TTFT.Mean)
	}
	if h.Transfer.Tokens != b.Transfer.Tokens {
		t.Errorf("hand-off %d -> %d tokens, want the whole prompt either way", b.Transfer.Tokens, h.Transfer.Tokens)
	}
	p := pre
	p.Workload.PrefixCacheHitRate = 0.5
	pb, p0 := PrefillBound(&p), PrefillBound(&pre)
	if !(pb.RatePerS > 1.7*p0.RatePerS && pb.RatePerS*(1+rateSlack) >= hit.Prefill.CapacityPerS) {
		t.Errorf("prefill bound %.2f -> %.2f requests/s against a capacity of %.2f: want it to rise with the rate and stay above", p0.RatePerS, pb.RatePerS, hit.Prefill.CapacityPerS)
	}
	UsePrefixHitRateInPD = false
	off := run(0.5)
	UsePrefixHitRateInPD = true
	if s := off.Scenario(4100); s.TTFT.Mean != b.TTFT.Mean || off.Prefill.hitRate != 0 {
		t.Errorf("UsePrefixHitRateInPD off: TTFT %.4f s, want the base's %.4f", s.TTFT.Mean, b.TTFT.Mean)
	}
	d := pre.Resolved()
	d.Spec.VLLM.ExtraArgs = append(d.Spec.VLLM.ExtraArgs, "--no-enable-prefix-caching")
	if nc := run(0.5); nc.Prefill.hitRate != 0 || nc.Scenario(4100).TTFT.Mean != b.TTFT.Mean {
		t.Errorf("--no-enable-prefix-caching: hit rate %g, TTFT %.4f s; want 0 and the base's %.4f", nc.Prefill.hitRate, nc.Scenario(4100).TTFT.Mean, b.TTFT.Mean)
	}
}

package pd

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/vllm"
)

// anyscaleRow is a row of the Anyscale sweep (ClientSweeps) at c sessions
// with the given instances per pool.
func anyscaleRow(c, pInst, dInst int) published.PDRow {
	var r published.PDRow
	r.Source = "anyscale-ray-serve-pd"
	r.Load.Kind = published.LoadClosedLoop
	r.Load.Concurrency = published.Num{V: float64(c), Known: true}
	r.Load.NumPrompts = published.Num{V: float64(5 * c), Known: true}
	r.Workload.InputTokens = published.Num{V: 5000, Known: true}
	r.Workload.OutputTokens = published.Num{V: 250, Known: true}
	r.Prefill.Instances = published.Num{V: float64(pInst), Known: true}
	r.Decode.Instances = published.Num{V: float64(dInst), Known: true}
	return r
}

// The sweep 4, 8, 16, 32, 48, 64 with five prompts a session: a run
// resends every earlier run's prompts (the first 5C' of one fixed draw), so
// on one instance per pool the share of a run's requests whose prompt is
// cached is the previous run's sessions over its own (the first run, none);
// with two prefill instances a prompt sent r times before is on the one
// that gets it with probability 1 − 2^−r (c16: prompts 0–19 sent twice, 20–39
// once, 40–79 never: (20 × 0.75 + 20 × 0.5) / 80); an instance whose KV
// holds fewer tokens than its distinct requests keeps only that share.
func TestRowPromptReuse(t *testing.T) {
	const big = 1 << 40
	for _, tc := range []struct {
		c, pInst, dInst int
		kvP             int64
		pre, dec        float64
	}{
		{4, 1, 1, big, 0, 0},
		{8, 1, 1, big, 0.5, 0.5},
		{16, 1, 1, big, 0.5, 0.5},
		{48, 1, 1, big, 2.0 / 3, 2.0 / 3},
		{64, 1, 1, big, 0.75, 0.75},
		{16, 2, 1, big, 0.3125, 0.5},
		// 80 distinct prompts of 5,001 tokens on a 200,040-token cache: half kept.
		{16, 1, 1, 200040, 0.25, 0.5},
	} {
		got := RowPromptReuse(anyscaleRow(tc.c, tc.pInst, tc.dInst), tc.kvP, big)
		if math.Abs(got.Prefill-tc.pre) > 1e-12 || math.Abs(got.Decode-tc.dec) > 1e-12 {
			t.Errorf("c%d, %d:%d instances, KV %d: reuse %+v, want prefill %.4f decode %.4f", tc.c, tc.pInst, tc.dInst, tc.kvP, got, tc.pre, tc.dec)
		}
	}
	// Not a run of the sweep, another source, a rate load: none.
	other := anyscaleRow(24, 1, 1)
	noSource := anyscaleRow(64, 1, 1)
	noSource.Source = "llm-d-pd-guide"
	rate := anyscaleRow(64, 1, 1)
	rate.Load.Kind = published.LoadPoisson
	for _, r := range []published.PDRow{other, noSource, rate} {
		if got := RowPromptReuse(r, big, big); got != (PromptReuse{}) {
			t.Errorf("%s %s c%v: reuse %+v, want none", r.Source, r.Load.Kind, r.Load.Concurrency.V, got)
		}
	}
}

// vLLM's prefix cache serves whole blocks below the prompt's last token:
// 4,992 of 5,000 tokens at block 16, 4,992 of 4,993, none of a prompt of
// one token or shorter than a block plus one.
func TestCachedPrefix(t *testing.T) {
	for _, tc := range []struct{ n, block, want int }{
		{5000, 16, 4992}, {4993, 16, 4992}, {4992, 16, 4976}, {16, 16, 0}, {17, 16, 16}, {1, 16, 0}, {0, 16, 0}, {5000, 0, 4999},
	} {
		if got := cachedPrefix(tc.n, tc.block); got != tc.want {
			t.Errorf("cachedPrefix(%d, %d) = %d, want %d", tc.n, tc.block, got, tc.want)
		}
	}
}

// A client whose prompts the pools already hold (evaluatePD's reuse): the
// prefill pool computes what its cache does not serve, so its capacity
// rises in proportion and its prefill shortens; the decode engine reads
// only the blocks it lacks, so the hand-off moves fewer tokens; TTFT falls;
// nothing of it without prefix caching, or with UsePromptReuse off.
func TestPromptReuseLightensBothPools(t *testing.T) {
	c := propertyBases[2] // gpt-oss-120b, TP4 : TP4 on H200
	c.in, c.out, c.conc, c.version, c.maxLen = 5000, 250, 32, "0.11.0", 16384
	c.gbit, c.nics, c.latUs = 400, 8, 2
	pre, dec := c.inputs(t)
	run := func(reuse PromptReuse) Report {
		r, _ := evaluatePD(&pre, &dec, false, "", false, vllm.NixlHandoff(), 0, reuse, slo.Options{Seed: 1})
		return r
	}
	base, half := run(PromptReuse{}), run(PromptReuse{Prefill: 0.5, Decode: 0.5})
	b, h := base.Scenario(5000), half.Scenario(5000)
	if half.PromptReuse == nil || base.PromptReuse != nil {
		t.Fatalf("PromptReuse: base %v, half %v", base.PromptReuse, half.PromptReuse)
	}
	// 5,000 − 0.5 × 4,992 = 2,504 tokens computed: the capacity ≈ 2×.
	if ratio := half.Prefill.CapacityPerS / base.Prefill.CapacityPerS; ratio < 1.7 || ratio > 2.3 {
		t.Errorf("prefill capacity %.2f -> %.2f requests/s (×%.2f), want about ×2", base.Prefill.CapacityPerS, half.Prefill.CapacityPerS, ratio)
	}
	if h.Transfer.Tokens != 2512 || b.Transfer.Tokens != 5008 {
		t.Errorf("hand-off tokens %d -> %d, want 5008 -> 2512 (whole blocks of 16)", b.Transfer.Tokens, h.Transfer.Tokens)
	}
	if !(h.TTFTParts.PrefillS < b.TTFTParts.PrefillS && h.TTFT.Mean < b.TTFT.Mean) {
		t.Errorf("prefill %.1f -> %.1f ms, TTFT %.1f -> %.1f ms: want both lower", 1e3*b.TTFTParts.PrefillS, 1e3*h.TTFTParts.PrefillS, 1e3*b.TTFT.Mean, 1e3*h.TTFT.Mean)
	}
	UsePromptReuse = false
	r, _ := evaluatePD(&pre, &dec, false, "", false, vllm.NixlHandoff(), 0, PromptReuse{Prefill: 0.5, Decode: 0.5}, slo.Options{Seed: 1})
	UsePromptReuse = true
	if s := r.Scenario(5000); s.TTFT.Mean != b.TTFT.Mean || r.PromptReuse != nil {
		t.Errorf("UsePromptReuse off: TTFT %.4f s, want the base's %.4f", s.TTFT.Mean, b.TTFT.Mean)
	}
}

// An engine started with --no-enable-prefix-caching keeps nothing: every
// prompt is computed and read whole whatever the client resends.
func TestPromptReuseNeedsPrefixCaching(t *testing.T) {
	c := propertyBases[2]
	c.in, c.out, c.conc, c.version, c.maxLen = 5000, 250, 8, "0.11.0", 16384
	c.gbit, c.nics, c.latUs = 400, 8, 2
	pre, _ := c.inputs(t)
	p := newPool("prefill", &pre)
	p.reuse = 0.5
	if got := p.uncached(5000); got != 2504 {
		t.Fatalf("prefix caching on: %d tokens computed, want 2504", got)
	}
	d := pre.Resolved()
	if d == nil || d.Spec == nil {
		t.Fatal("no resolved spec")
	}
	d.Spec.VLLM.ExtraArgs = append(d.Spec.VLLM.ExtraArgs, "--no-enable-prefix-caching")
	if got := p.uncached(5000); got != 5000 {
		t.Errorf("--no-enable-prefix-caching: %d tokens computed, want all 5000", got)
	}
}

// The prefill pool's simulation draws each request cached or new
// (UseCachedDraw): it runs whole prompts with the pool's share drawn
// cached, and its run reports about that share of the prompt tokens
// served from the cache (0.5 × 4,992 / 5,000); off, or with no reuse, or
// without prefix caching, it runs the mean uncached tokens and draws
// nothing, as before.
func TestPrefillDrawsCachedPrompts(t *testing.T) {
	c := propertyBases[2]
	c.in, c.out, c.conc, c.version, c.maxLen = 5000, 250, 8, "0.11.0", 16384
	c.gbit, c.nics, c.latUs = 400, 8, 2
	pre, _ := c.inputs(t)
	pIn := pre
	pIn.Workload.OutputTokens = 1
	p := newPool("prefill", &pIn)
	if n, share, _ := p.prefillDraw(5000); n != 5000 || share != 0 {
		t.Fatalf("no reuse: draw (%d, %g), want (5000, 0)", n, share)
	}
	p.reuse = 0.5
	if n, share, _ := p.prefillDraw(5000); n != 5000 || share != 0.5 {
		t.Fatalf("reuse 0.5: draw (%d, %g), want (5000, 0.5)", n, share)
	}
	r := simPrefill(&p, 5000, load{sessions: 8}, 1)
	if got := r.PromptCached; got < 0.5*0.9984-0.12 || got > 0.5*0.9984+0.12 {
		t.Errorf("reuse 0.5: %.3f of the prompt tokens cached, want about 0.5", got)
	}
	UseCachedDraw = false
	n, share, _ := p.prefillDraw(5000)
	r = simPrefill(&p, 5000, load{sessions: 8}, 1)
	UseCachedDraw = true
	if n != 2504 || share != 0 || r.PromptCached != 0 {
		t.Errorf("UseCachedDraw off: draw (%d, %g), %.3f cached; want (2504, 0), none", n, share, r.PromptCached)
	}
	d := pIn.Resolved()
	d.Spec.VLLM.ExtraArgs = append(d.Spec.VLLM.ExtraArgs, "--no-enable-prefix-caching")
	if n, share, _ := p.prefillDraw(5000); n != 5000 || share != 0 {
		t.Errorf("--no-enable-prefix-caching: draw (%d, %g), want (5000, 0)", n, share)
	}
}

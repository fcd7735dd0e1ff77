package slo

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/spec"
)

// prefixInput is Llama-3.1-70B on 8 × A100 with a prefill-bound workload
// (2,050-token prompts, 8 output tokens, 64 sessions) at hit rate rate,
// with extra vLLM arguments args.
func prefixInput(t *testing.T, rate float64, args ...string) Prediction {
	t.Helper()
	in := adviceInput(t, "../../examples/llama-3.1-70b-8xa100.yaml", func(d *spec.Deployment) {
		d.Workload.InputTokens, d.Workload.OutputTokens, d.Workload.PrefixCacheHitRate = 2050, 8, rate
		one := 1.0
		d.SLO.TTFT = []spec.TTFTTarget{{InputTokens: 2050, P50S: &one}}
		d.VLLM.ExtraArgs = append(d.VLLM.ExtraArgs, args...)
	})
	return runPerf(t, in)
}

// TestPrefixHitRateSpec: at hit rate 0.5 a 2,050-token prompt finds
// 1,024 tokens cached (1,025 rounded down to 64 blocks of 16) and
// computes 1,026: the idle TTFT is the step model's prefill of 1,026
// tokens after a 1,024-token cached prefix, the simulated TTFT falls and the prefill-bound throughput rises;
// the note and the TTFT explanation name the rate and the computed share.
// With --no-enable-prefix-caching the rate changes nothing.
func TestPrefixHitRateSpec(t *testing.T) {
	base, hit := prefixInput(t, 0), prefixInput(t, 0.5)
	off := prefixInput(t, 0.5, "--no-enable-prefix-caching")
	in := adviceInput(t, "../../examples/llama-3.1-70b-8xa100.yaml", nil)
	sm := perf.NewStepModel(perf.SetupFromInput(&in))
	want := sm.PrefillIdleCached(2050, 1024, max(1, in.MaxNumBatchedTokens)).TTFTS
	if got := hit.Performance.Prefill[0]; got.InputTokens != 2050 || got.TTFTS != want {
		t.Errorf("idle prefill at 0.5: %d tokens in %v s, want 2,050 in PrefillIdleCached(2,050, 1,024) = %v s", got.InputTokens, got.TTFTS, want)
	}
	// The 1,026 new tokens attend to the 1,024 cached ones too (qa44b F5):
	// dearer than a fresh prompt of 1,026.
	if fresh := sm.PrefillIdle(1026, max(1, in.MaxNumBatchedTokens)).TTFTS; want <= fresh {
		t.Errorf("idle prefill after a 1,024-token hit %v s, a fresh 1,026-token prompt %v s: want the hit dearer", want, fresh)
	}
	if b, h := base.Performance.Prefill[0].TTFTS, hit.Performance.Prefill[0].TTFTS; h >= 0.6*b {
		t.Errorf("idle TTFT %v at 0.5, %v at 0: want about half", h, b)
	}
	bs, hs := base.Performance.Simulations[0].Result, hit.Performance.Simulations[0].Result
	t.Logf("rate 0: TTFT p50 %.4f s, %.0f out tok/s; rate 0.5: TTFT p50 %.4f s, %.0f out tok/s, %.3f of prompt tokens cached",
		bs.TTFT.P50, bs.OutputTokPerS, hs.TTFT.P50, hs.OutputTokPerS, hs.PromptCached)
	if hs.TTFT.P50 >= bs.TTFT.P50 || hs.OutputTokPerS < 1.3*bs.OutputTokPerS {
		t.Errorf("rate 0.5: TTFT p50 %v s, %v tok/s; rate 0: %v s, %v tok/s: want lower TTFT and at least 1.3× the throughput",
			hs.TTFT.P50, hs.OutputTokPerS, bs.TTFT.P50, bs.OutputTokPerS)
	}
	if hs.PromptCached != 1024.0/2050 {
		t.Errorf("simulation cached %v of prompt tokens, want 1,024 / 2,050", hs.PromptCached)
	}
	notes := strings.Join(hit.Performance.Notes, "\n")
	for _, w := range []string{"prefix cache hit rate 0.5", "first 1024 tokens cached", "computes 1026 (50%)", "the simulation served 50% of its prompt tokens"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	if v := ttftVerdictOf(t, hit, "p50"); !strings.Contains(v.Explanation, "it computes 1026 of its 2050 tokens: prefix cache hit rate 0.5") {
		t.Errorf("TTFT explanation lacks the computed share: %s", v.Explanation)
	}
	or, br := off.Performance.Simulations[0].Result, base.Performance.Simulations[0].Result
	if off.Performance.Prefill[0] != base.Performance.Prefill[0] || or.TTFT != br.TTFT || or.OutputTokPerS != br.OutputTokPerS {
		t.Errorf("caching off at 0.5 differs from rate 0: prefill %+v vs %+v, sim %v/%v vs %v/%v",
			off.Performance.Prefill[0], base.Performance.Prefill[0], or.TTFT, or.OutputTokPerS, br.TTFT, br.OutputTokPerS)
	}
	if !strings.Contains(strings.Join(off.Performance.Notes, "\n"), "has no effect: prefix caching is off") {
		t.Errorf("caching off: no note saying the rate has no effect: %q", off.Performance.Notes)
	}
}

// TestPrefixHitRateSlidingWindow: gpt-oss-120b's sliding-window layers do
// not keep the simulation from serving the cached prefix (vLLM's
// SlidingWindowManager.find_longest_cache_hit hits on them): at rate 0.5
// the simulation caches half the prompt tokens and TTFT falls, as the
// idle prefill says. Until qa43 F1 the simulator dropped the rate for any
// layout with a fixed page, and check described a hit it did not
// simulate. A model with recurrent state (Qwen3-Next) still prices none,
// and says so.
func TestPrefixHitRateSlidingWindow(t *testing.T) {
	run := func(path string, rate float64) Prediction {
		in := adviceInput(t, path, func(d *spec.Deployment) { d.Workload.PrefixCacheHitRate = rate })
		m := memory.Estimate(&in) // with the layout's KV cost, as check runs it (its sliding-window page)
		return Predict(&in, m.KVTokensPerRank, kvSeqsOf(&in, &m), Options{Seed: 1, Requests: 1000, kv: seqCostOf(&m)})
	}
	const oss = "testdata/gpt-oss-120b-tp4-4xh200-prefix.yaml"
	base, hit := run(oss, 0), run(oss, 0.5)
	bs, hs := base.Performance.Simulations[0].Result, hit.Performance.Simulations[0].Result
	if hs.PromptCached < 0.45 || hs.TTFT.P50 >= 0.8*bs.TTFT.P50 {
		t.Errorf("gpt-oss at 0.5: %.3f of prompt tokens cached, TTFT p50 %.4f s (rate 0: %.4f s): want about half cached and a lower TTFT",
			hs.PromptCached, hs.TTFT.P50, bs.TTFT.P50)
	}
	if h, b := hit.Performance.Prefill[0].TTFTS, base.Performance.Prefill[0].TTFTS; h >= 0.7*b {
		t.Errorf("gpt-oss idle TTFT %v at 0.5, %v at 0: want the cached half not computed", h, b)
	}
	next := run("../../examples/qwen3-next-80b-a3b-2xh200.yaml", 0.5)
	if c := next.Performance.Simulations[0].Result.PromptCached; c != 0 {
		t.Errorf("Qwen3-Next (recurrent state) cached %v of its prompt tokens, want none priced", c)
	}
	if notes := strings.Join(next.Performance.Notes, "\n"); !strings.Contains(notes, "is not applied") {
		t.Errorf("Qwen3-Next: no note that the rate is not applied:\n%s", notes)
	}
}

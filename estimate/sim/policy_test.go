package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// recorder is a constant step that records every step's loads.
type recorder struct {
	d     float64
	steps [][]perf.RankLoad
}

func (r *recorder) step(l []perf.RankLoad) float64 {
	r.steps = append(r.steps, append([]perf.RankLoad(nil), l...))
	return r.d
}

// A burst of N requests is a finite run: exactly N complete, each measured
// from t=0, and with one request at a time (max_num_seqs 1) the i-th waits
// for the i−1 before it.
func TestBurstPoolFinite(t *testing.T) {
	const n, d = 10, 0.01
	res := Run(Config{Step: constStep(d), DP: 1, MaxNumSeqs: 1, MaxNumBatchedTokens: 1 << 20,
		InputTokens: 100, OutputTokens: 1, Sessions: n, Pool: n, Seed: 1})
	if res.Requests != n {
		t.Fatalf("%d requests measured, want %d", res.Requests, n)
	}
	// TTFT of the i-th is (i+1) steps: mean (n+1)/2 steps, P99 n steps.
	if !near(res.TTFT.Mean, d*(n+1)/2, 1e-9) || !near(res.TTFT.P99, d*n, 1e-9) {
		t.Fatalf("TTFT mean %.3f p99 %.3f, want %.3f and %.3f", res.TTFT.Mean, res.TTFT.P99, d*(n+1)/2, d*n)
	}
	if !near(res.SimulatedS, d*n, 1e-9) {
		t.Fatalf("run lasted %.3f s, want %.3f", res.SimulatedS, d*n)
	}
}

// vLLM V1 (DecodeFirst) gives a running decode its token in the same step
// as a new prompt; SGLang (PrefillFirst) runs the prompt alone and the
// decode waits.
func TestPrefillFirstStallsDecodes(t *testing.T) {
	for _, p := range []Policy{DecodeFirst, PrefillFirst} {
		rec := &recorder{d: 0.01}
		Run(Config{Step: rec.step, DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 4096, InputTokens: 100, OutputTokens: 20,
			Sessions: 2, Pool: 2, StaggerS: 0.05, Seed: 3, Policy: p})
		mixed := false
		for _, st := range rec.steps {
			if st[0].PrefillTokens > 0 && st[0].DecodeSeqs > 0 {
				mixed = true
			}
		}
		if mixed != (p == DecodeFirst) {
			t.Errorf("%s: a step mixed prefill and decode: %v", p, mixed)
		}
	}
}

// V0 without chunked prefill runs whole prompts: one larger than the
// budget is not split over steps.
func TestPrefillFirstWholeDoesNotChunk(t *testing.T) {
	rec := &recorder{d: 0.01}
	Run(Config{Step: rec.step, DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 512, InputTokens: 2000, OutputTokens: 2,
		Sessions: 1, Pool: 1, Seed: 1, Policy: PrefillFirstWhole})
	if got := rec.steps[0][0].PrefillTokens; got != 2000 {
		t.Fatalf("first step prefilled %v tokens, want the whole 2000-token prompt", got)
	}
}

// The front end ingests a burst one request after another before any first
// token is delivered, and holds tokens until it has streamed them.
func TestFrontendIngestWall(t *testing.T) {
	const n, req = 50, 0.02
	res := Run(Config{Step: constStep(0.001), DP: 1, MaxNumSeqs: 1024, MaxNumBatchedTokens: 1 << 20, InputTokens: 10, OutputTokens: 2,
		Sessions: n, Pool: n, Seed: 1, Frontend: Frontend{RequestS: req}})
	if res.TTFT.P50 < n*req*0.95 {
		t.Fatalf("median TTFT %.3f s; every first token should wait for the whole burst's ingest (%.2f s)", res.TTFT.P50, n*req)
	}
	slow := Run(Config{Step: constStep(0.001), DP: 1, MaxNumSeqs: 1024, MaxNumBatchedTokens: 1 << 20, InputTokens: 10, OutputTokens: 20,
		Sessions: 100, Pool: 100, Seed: 1, Frontend: Frontend{TokenS: 1e-4}})
	if slow.TPOT.Mean < 100*1e-4*0.9 {
		t.Fatalf("TPOT %.4f s with 100 streams at 0.1 ms per token: delivery should pace it", slow.TPOT.Mean)
	}
}

// With rounds (Frontend.Rounds) a burst's requests reach the engine
// together, when the pass that ingests them all ends: every TTFT is the
// whole burst's ingest plus the engine's share, so the P99 is close to the
// mean (the public vLLM 0.11 bursts: 1.1–1.25 ×). Without rounds a
// request reaches the engine after its own parse and its tokens skip the
// parses queued behind it (parseAhead), so the mean is about half the P99.
// Hand-derived: 50 chat-template parses of 20 ms, a 1 ms step: with rounds
// each TTFT is 1.0 s + 1 ms; without, request k's is about 20 ms × (k+1)
// plus the step.
func TestFrontendRoundsBurst(t *testing.T) {
	const n, req = 50, 0.02
	cfg := Config{Step: constStep(0.001), DP: 1, MaxNumSeqs: 1024, MaxNumBatchedTokens: 1 << 20, InputTokens: 10, OutputTokens: 2,
		Sessions: n, Pool: n, Seed: 1, Frontend: Frontend{ChatTemplateS: req, Rounds: true}}
	rounds := Run(cfg)
	if want := n*req + 0.001; math.Abs(rounds.TTFT.Mean-want) > 1e-9 || math.Abs(rounds.TTFT.P99-want) > 1e-9 {
		t.Errorf("rounds: TTFT mean %.4f s, P99 %.4f s; want both %.4f s (the whole pass, then one step)", rounds.TTFT.Mean, rounds.TTFT.P99, want)
	}
	cfg.Frontend.Rounds = false
	serial := Run(cfg)
	if r := serial.TTFT.P99 / serial.TTFT.Mean; r < 1.8 {
		t.Errorf("one by one: TTFT P99 %.4f s over mean %.4f s = %.2f, want about 2", serial.TTFT.P99, serial.TTFT.Mean, r)
	}
}

// A spread draws lengths uniformly: the mean output over many requests is
// the middle of the range.
func TestSpreadMeanLength(t *testing.T) {
	res := Run(Config{Step: constStep(0.001), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20, InputTokens: 100, OutputTokens: 200,
		Sessions: 32, Pool: 4000, Seed: 5, Spread: Spread{Lo: 0.5, Hi: 1}})
	mean := res.OutputTokPerS * res.SimulatedS / float64(res.Requests)
	if math.Abs(mean/150-1) > 0.03 {
		t.Fatalf("mean output %.1f tokens, want ≈150", mean)
	}
}

// An output range of its own (Spread.OutLo/OutHi) sets the output lengths
// while Lo/Hi keep the inputs': here outputs in [0, 2] × 200 (mean 200)
// against [0.5, 1] × 200 (mean 150) without it.
func TestSpreadOwnOutputRange(t *testing.T) {
	res := Run(Config{Step: constStep(0.001), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20, InputTokens: 100, OutputTokens: 200,
		Sessions: 32, Pool: 4000, Seed: 5, Spread: Spread{Lo: 0.5, Hi: 1, OutLo: 0, OutHi: 2}})
	mean := res.OutputTokPerS * res.SimulatedS / float64(res.Requests)
	if math.Abs(mean/200-1) > 0.04 {
		t.Fatalf("mean output %.1f tokens, want ≈200", mean)
	}
}

// near reports |a−b| ≤ tol·max(|b|, 1e-12).

// TestSteadySegmentsWithEngineFeatures: steady segments agree with
// stepping when requests pass through a front end, have spread lengths,
// come as a finite burst, or run under a prefill-first policy.
func TestSteadySegmentsWithEngineFeatures(t *testing.T) {
	ctxStep := func(l []perf.RankLoad) float64 {
		var ctx, tok float64
		for _, x := range l {
			ctx = max(ctx, x.DecodeCtx+x.PrefillPairs/1000)
			tok = max(tok, x.DecodeSeqs+x.PrefillTokens)
		}
		return 0.004 + 1e-8*ctx + 2e-6*tok
	}
	base := Config{Step: ctxStep, DP: 2, MaxNumSeqs: 32, MaxNumBatchedTokens: 2048, InputTokens: 1500, OutputTokens: 600,
		Sessions: 24, Requests: 400, Warmup: 40, Seed: 3, StaggerS: 1}
	cases := map[string]Config{
		"front end": func() Config { c := base; c.Frontend = Frontend{RequestS: 0.01, TokenS: 1e-4}; return c }(),
		"slow front end": func() Config {
			c := base
			c.Frontend = Frontend{RequestS: 0.01, TokenS: 5e-4}
			return c
		}(),
		"spread":        func() Config { c := base; c.Spread = Spread{Lo: 0.5, Hi: 1}; return c }(),
		"burst":         func() Config { c := base; c.Sessions, c.Pool, c.StaggerS = 200, 200, 0; return c }(),
		"prefill first": func() Config { c := base; c.Policy = PrefillFirst; return c }(),
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			a, b, ca, cb := runBoth(t, cfg)
			if a.Requests != b.Requests {
				t.Fatalf("requests %d/%d", a.Requests, b.Requests)
			}
			for _, p := range [][2]float64{{a.TTFT.P50, b.TTFT.P50}, {a.TTFT.P99, b.TTFT.P99}, {a.TPOT.Mean, b.TPOT.Mean},
				{a.E2E.P99, b.E2E.P99}, {a.OutputTokPerS, b.OutputTokPerS}} {
				if !near(p[1], p[0], 0.01) {
					t.Errorf("stepping %v, segments %v", p[0], p[1])
				}
			}
			if cb > ca {
				t.Errorf("segments called the step model %d times, stepping %d", cb, ca)
			}
		})
	}
}

// TestFrontendPromptTokens: tokenizing prompts is the front end's serial
// work per prompt token, so a lone request's TTFT grows by PromptTokenS ×
// its prompt, reported as TTFTParts.PromptS inside FrontendS, and a burst
// of long prompts queues behind it (the last request waits for every
// prompt before it), where the same prompts with no per-token cost do not.
func TestFrontendPromptTokens(t *testing.T) {
	const in, perTok = 5000, 2e-6
	cfg := Config{Step: constStep(0.001), DP: 1, MaxNumSeqs: 1024, MaxNumBatchedTokens: 1 << 20, InputTokens: in, OutputTokens: 2,
		Sessions: 1, Pool: 1, Seed: 1}
	bare := Run(cfg)
	cfg.Frontend = Frontend{PromptTokenS: perTok}
	lone := Run(cfg)
	if d := lone.TTFT.Mean - bare.TTFT.Mean; math.Abs(d-in*perTok) > 1e-9 {
		t.Fatalf("a lone %d-token prompt's TTFT grew by %.6f s, want %.6f s", in, d, in*perTok)
	}
	if p := lone.TTFTParts; math.Abs(p.PromptS-in*perTok) > 1e-12 || p.FrontendS < p.PromptS {
		t.Fatalf("TTFT parts %+v: want PromptS %.6f s inside FrontendS", p, in*perTok)
	}
	const n = 40
	cfg.Sessions, cfg.Pool = n, n
	burst := Run(cfg)
	if want := n * in * perTok; burst.TTFT.P99 < 0.95*want {
		t.Fatalf("burst of %d prompts: P99 TTFT %.4f s, want at least the whole burst's tokenization %.4f s", n, burst.TTFT.P99, want)
	}
	if burst.TTFTParts.FrontendS < 2*burst.TTFTParts.PromptS {
		t.Fatalf("burst parts %+v: the wait behind other prompts should exceed a request's own", burst.TTFTParts)
	}
}

// TestFrontendChatTemplate: the chat-template parse is ingest work on the
// front end's one queue. A lone request's TTFT grows by exactly
// ChatTemplateS (inside FrontendS); a request arriving while others stream
// holds their next tokens until its parse is done (the event loop's stall:
// the inter-token tail), after which they catch up, so the engine's rate and
// the streams' mean TPOT barely move while every TTFT pays the parses queued
// ahead of it.
func TestFrontendChatTemplate(t *testing.T) {
	const parse = 0.03
	cfg := Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20, InputTokens: 100, OutputTokens: 2,
		Sessions: 1, Pool: 1, Seed: 1, Frontend: Frontend{RequestS: 1e-3}}
	bare := Run(cfg)
	cfg.Frontend.ChatTemplateS = parse
	lone := Run(cfg)
	if d := lone.TTFT.Mean - bare.TTFT.Mean; math.Abs(d-parse) > 1e-9 {
		t.Fatalf("a lone request's TTFT grew by %.6f s, want the parse's %.3f s", d, parse)
	}
	if p := lone.TTFTParts; p.FrontendS < parse {
		t.Fatalf("TTFT parts %+v: the parse belongs to the front end's share", p)
	}

	// The stall itself: a step ending 10 ms into an arrival's 31 ms of
	// ingest work delivers its tokens when that work is done.
	s := &simulator{cfg: Config{Frontend: Frontend{RequestS: 1e-3, ChatTemplateS: parse}}}
	s.arrive(simReq{arrival: 1, input: 100})
	s.now, s.outputs = 1.01, 3
	if got, want := s.deliveryTime(), 1+1e-3+parse; math.Abs(got-want) > 1e-12 {
		t.Fatalf("tokens of a step ending at 1.010 s delivered at %.4f s, want %.4f s (behind the arrival's parse)", got, want)
	}
	// Without rounds, behind a backlog they wait for the parse in progress,
	// not for the parses queued after it (the rest of the queued work
	// still counts).
	s = &simulator{cfg: Config{Frontend: Frontend{RequestS: 1e-3, ChatTemplateS: parse}}}
	for range 3 {
		s.arrive(simReq{arrival: 1, input: 100})
	}
	s.now, s.outputs = 1.01, 3
	if got, want := s.deliveryTime(), 1+3*(1e-3+parse)-2*parse; math.Abs(got-want) > 1e-12 {
		t.Fatalf("behind three arrivals' ingest, tokens delivered at %.4f s, want %.4f s (the first parse, not the two queued)", got, want)
	}
	// With rounds, three requests arriving together are one pass of the event loop:
	// the tokens wait for the whole pass, and each request reaches the
	// engine only when the pass ends (1 + 3 × 31 ms), not the first after
	// its own 31 ms. A request arriving during the pass waits for the next
	// one, which starts when the first ends.
	s = newSimulator(Config{Frontend: Frontend{RequestS: 1e-3, ChatTemplateS: parse, Rounds: true}})
	for range 3 {
		s.arrive(simReq{arrival: 1, input: 100})
	}
	s.now, s.outputs = 1.01, 3
	pass := 1 + 3*(1e-3+parse)
	if got := s.deliveryTime(); math.Abs(got-pass) > 1e-12 {
		t.Fatalf("behind a pass of three arrivals' ingest, tokens delivered at %.4f s, want %.4f s (the whole pass)", got, pass)
	}
	s.arrive(simReq{arrival: 1.05, input: 100})
	s.now = 2
	s.handOver()
	for i, r := range s.ranks[0].waiting {
		want := pass
		if i == 3 {
			want = pass + 1e-3 + parse
		}
		if math.Abs(r.ready-want) > 1e-12 {
			t.Errorf("request %d reached the engine at %.4f s, want %.4f s", i, r.ready, want)
		}
	}
	if n := len(s.ranks[0].waiting); n != 4 {
		t.Fatalf("%d requests handed over, want 4", n)
	}

	loop := Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20, InputTokens: 100, OutputTokens: 100,
		Sessions: 4, Pool: 200, Seed: 1, Frontend: Frontend{RequestS: 1e-3}}
	calm := Run(loop)
	loop.Frontend.ChatTemplateS = parse
	parsed := Run(loop)
	if d := parsed.TTFT.Mean - calm.TTFT.Mean; d < parse {
		t.Fatalf("4 closed-loop sessions: TTFT %.4f -> %.4f s, want at least the parse's %.3f s more", calm.TTFT.Mean, parsed.TTFT.Mean, parse)
	}
	if r := parsed.TPOT.Mean / calm.TPOT.Mean; math.Abs(r-1) > 0.03 {
		t.Fatalf("4 closed-loop sessions: TPOT %.5f -> %.5f s; held tokens catch up, the mean should stay within 3%%", calm.TPOT.Mean, parsed.TPOT.Mean)
	}
}

// Config.FirstTokenLag delays each first token (and only it) by the lag of
// the step that sampled it: the mean TTFT of a lone closed loop grows by
// the lag, the time per later token stays.
func TestFirstTokenLag(t *testing.T) {
	base := Config{Step: constStep(0.001), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20, InputTokens: 100, OutputTokens: 50,
		Sessions: 1, Pool: 200, Seed: 5}
	lagged := base
	lagged.FirstTokenLag = func(loads []perf.RankLoad) float64 {
		if loads[0].PrefillTokens > 0 {
			return 0.004
		}
		return 0
	}
	a, b := Run(base), Run(lagged)
	if d := b.TTFT.Mean - a.TTFT.Mean; math.Abs(d-0.004) > 1e-9 {
		t.Errorf("TTFT mean %.6f s with the lag, %.6f s without: differ by %.6f s, want 0.004", b.TTFT.Mean, a.TTFT.Mean, d)
	}
	if b.TPOT.Mean >= a.TPOT.Mean {
		t.Errorf("TPOT %.6f s with the lag, %.6f s without: the later first token should shorten the time per later token", b.TPOT.Mean, a.TPOT.Mean)
	}
}

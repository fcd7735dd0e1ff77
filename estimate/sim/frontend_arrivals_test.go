package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// prefillOrDecode is a step of long seconds when any rank prefills, else
// short seconds.
func prefillOrDecode(long, short float64) func([]perf.RankLoad) float64 {
	return func(ls []perf.RankLoad) float64 {
		for _, l := range ls {
			if l.PrefillTokens > 0 {
				return long
			}
		}
		return short
	}
}

// The front end ingests a request when it arrives, also while a step runs:
// requests arriving during a long step, each after the one before it is
// ingested, are all ready before the step ends and are handed to the engine
// together when it ends — not queued behind the step's output tokens and
// ingested one after another only then (that made the parses of every
// arrival of a 1 s step a 0.6 s burst after it, cut up by the 10 ms decode
// steps that followed into a prefill step each: in the reference check,
// whose prefill steps last minutes, TPOT +5% from a 1.75 ms parse).
//
// Hand-derived: request 0 arrives at 0, is ready at w = 31 ms (1 ms request
// + 30 ms parse) and prefills alone in [w, w+1]; twenty requests arrive
// 40 ms apart from 0.1 s (each finds the front end idle: 40 > 31 ms), so each
// is ready at its arrival + w and waits for the step to end at 1 + w; they
// then prefill together in one step, [1+w, 2+w], and their first tokens
// (no per-token front-end work) reach the client at 2 + w.
func TestFrontendIngestsDuringSteps(t *testing.T) {
	const w, n = 0.031, 20
	for _, parse := range []float64{0.03, 0} {
		fe := Frontend{RequestS: w - parse, ChatTemplateS: parse}
		s := newSimulator(Config{Step: prefillOrDecode(1, 0.01), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20,
			InputTokens: 100, OutputTokens: 2, Sessions: 1, Pool: 1 + n, Frontend: fe})
		for k := range n {
			s.pend(simReq{arrival: 0.1 + 0.04*float64(k), session: -1, prompt: 100, input: 100, output: 2})
			s.sent++ // the pool's: session 0 sends no other
		}
		s.run()
		if len(s.measured) != 1+n {
			t.Fatalf("parse %.3f s: %d requests measured, want %d", parse, len(s.measured), 1+n)
		}
		for k, rec := range s.measured[1:] { // request 0 finishes first (its decode step ends at 1.041 s)
			arrival := 0.1 + 0.04*float64(k)
			if want := 2 + w - arrival; math.Abs(rec.ttft-want) > 1e-9 {
				t.Errorf("parse %.3f s: request arriving at %.2f s: TTFT %.4f s, want %.4f s (first token at 2 + w)", parse, arrival, rec.ttft, want)
			}
			if math.Abs(rec.frontend-w) > 1e-9 || math.Abs(rec.prefill-1) > 1e-9 {
				t.Errorf("parse %.3f s: request arriving at %.2f s: front end %.4f s, prefill %.4f s, want its own ingest %.3f s and one 1 s step",
					parse, arrival, rec.frontend, rec.prefill, w)
			}
		}
	}
}

// The reference check's case in small: prefill steps of 1 s, decode steps
// of 2 ms + 1 ms per decode, sessions staggered over the first seconds so
// that several arrive during each prefill step, while few decode (a 4 ms
// step). A parse of 0.5 ms on a 0.25 ms request is 30 ms for all 40
// sessions together, below a step of them decoding (42 ms): it costs each
// TTFT its ingest, and at most the queue of every session's parse (20 ms),
// but cannot change which steps the prompts run in, so TPOT stays within 1%
// of the same run without it. (Before the front end ingested arrivals
// during the steps, a prefill step's arrivals came out after it as one
// burst, cut by the 4 ms decode steps into prefill steps of 1 s: TTFT
// 1.03 -> 1.90 s, TPOT +0.9%.)
func TestFrontendParseKeepsTPOT(t *testing.T) {
	step := func(ls []perf.RankLoad) float64 {
		var d float64
		for _, l := range ls {
			if l.PrefillTokens > 0 {
				return 1
			}
			d += l.DecodeSeqs
		}
		return 0.002 + 0.001*d
	}
	cfg := Config{Step: step, DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20, InputTokens: 100, OutputTokens: 200,
		Sessions: 40, StaggerS: 5, Requests: 400, Warmup: 40, Seed: 1, Frontend: Frontend{RequestS: 0.25e-3}}
	bare := Run(cfg)
	cfg.Frontend.ChatTemplateS = 0.5e-3
	parsed := Run(cfg)
	t.Logf("TPOT %.5f -> %.5f s, TTFT %.4f -> %.4f s, front end %.4f -> %.4f s", bare.TPOT.Mean, parsed.TPOT.Mean, bare.TTFT.Mean, parsed.TTFT.Mean, bare.TTFTParts.FrontendS, parsed.TTFTParts.FrontendS)
	if d := parsed.TTFT.Mean - bare.TTFT.Mean; d < 0 || d > 40*0.5e-3 {
		t.Errorf("TTFT %.4f s with a 0.5 ms parse, %.4f s without: want at most every session's parse more (20 ms)", parsed.TTFT.Mean, bare.TTFT.Mean)
	}
	if r := parsed.TPOT.Mean / bare.TPOT.Mean; math.Abs(r-1) > 0.01 {
		t.Errorf("TPOT %.5f s with a 0.5 ms parse, %.5f s without: want within 1%%", parsed.TPOT.Mean, bare.TPOT.Mean)
	}
}

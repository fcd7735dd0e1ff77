package pd

import (
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// finite replays a scenario's load as the finite run of a benchmark client
// (workload.burst_requests: vllm bench serve --max-concurrency C
// --num-prompts N, genai-perf --concurrency C --request-count N, or a
// burst), on top of the steady composition's figures (steadyPr, steadyRate)
// at prompts of n tokens and out output tokens. The clients start every
// session at once and count every request, so the first round is a
// staircase of prompts queued behind each other in the prefill pool's
// token budget, which the steady loop (sessions staggered, warm-up
// discarded) never sees (docs/calibration-pd.md, "TTFT under load").
//
// A closed loop of C sessions and N requests:
//   - the decode pool runs the finite run of the C sessions and N requests
//     first. Its first round arrives as the prefill pool finishes the C
//     prompts sent at t=0: one after the other over the time the pool takes
//     to prefill them all at its capacity (C / capacity, the staircase's
//     length), so the sessions' first requests are spread uniformly over
//     it; each later request comes after the session's time away from the
//     decode pool, the steady composition's (its prefill, queue included,
//     and the hand-off): a later round meets the queue the loop settles
//     into, not the first round's staircase, which would otherwise be
//     counted twice. Its TPOT is every request's, the ramp-up and the
//     ramp-down included, as the clients measure it.
//   - the prefill pool runs the finite run from t=0: the C sessions at
//     once, each next request leaving after the hand-off and the decode
//     pool's mean time in that run (its think time, as in the steady mode).
//     Its TTFT distribution is every request's, the first round's
//     staircase included.
//   - the request rate is the clients': N requests over the run's length,
//     the decode run's (from its first arrival to its last completion)
//     plus the first request's way there (an idle prompt and the hand-off
//     alone).
//
// TTFT is then composed as the steady mode composes it: the two pools'
// distributions convolved as independent, plus the hand-off. Per request,
// a first-round prompt late in the prefill staircase also meets a busier
// decode pool; the mean is the same, the spread slightly narrower.
//
// A burst at an arrival rate (no sessions): both pools get the N requests
// at that rate (the decode pool at most at the prefill pool's capacity,
// what reaches it); the queue drains, so the run is never unbounded.
func (e *evaluator) finite(n, out int, muP, hop float64, base Transfer, steadyPr sim.Result, steadyRate float64, decode func(load) sim.Result) (pr, dr sim.Result, lambda float64) {
	pre := e.pre
	N := e.pool
	// The first request's way to the decode pool (base moves nothing when
	// the decode engines recompute the prompt).
	first := pre.idlePrefill(n).TTFTS + hop + firstHandoffS(base)
	rateOf := func(dr sim.Result) float64 {
		if dr.OutputTokPerS <= 0 {
			return 0
		}
		return float64(N) / (float64(N)*float64(out)/dr.OutputTokPerS + first)
	}
	if e.rate > 0 {
		pr = simPrefill(pre, n, load{rate: e.rate, pool: N, cap: e.preCap}, e.seed)
		r := e.rate
		if muP > 0 {
			r = min(r, muP)
		}
		dr = decode(load{rate: r, pool: N, cap: e.decCap})
		return pr, dr, rateOf(dr)
	}
	C := e.sessions
	span := 0.0
	if muP > 0 {
		span = float64(C) / muP
	}
	away := steadyPr.TTFT.Mean + hop + handoffAt(base, steadyRate).TimeS
	dr = decode(load{sessions: C, thinkS: away, pool: N, staggerS: span})
	lambda = rateOf(dr)
	pr = simPrefill(pre, n, load{sessions: C, thinkS: hop + handoffAt(base, lambda).TimeS + dr.E2E.Mean, pool: N}, e.seed)
	return pr, dr, lambda
}

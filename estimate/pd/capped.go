package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/sim"
)

// cappedScenario is the scenario at prompts of n tokens of an open loop at
// e.rate whose client holds at most C = e.clientCap requests in flight end
// to end (EvaluateCapped; sim.Config.ClientCap's semantics: a request
// that arrives with C in flight waits in the client's queue, is sent when
// a request's last token is delivered, and its TTFT and end-to-end
// latency start at that send, so the client's wait is in no figure). A
// slot is held from the send through the prefill pool, the router's hops,
// the KV hand-off and the decode pool, so no one pool's simulation sees
// the cap as the client applies it: the decode pool frees the slots the
// prefill pool's arrivals wait for. The composition:
//
//  1. The uncapped open loop at the rate (compose, as Evaluate runs it).
//     If it serves the rate with a mean of fewer than C requests in
//     flight (Little's law: rate × (TTFT + (out − 1) × TPOT)), go to 3.
//  2. Else the closed loop of C sessions (compose with C sessions, the
//     model's own closed loop; in a finite run its C sessions start at
//     t=0). If it serves at most the rate, the client's queue never
//     empties and every freed slot is taken at once: a capped loop above
//     what C sessions sustain is that closed loop (sim.Config.MaxWaiting
//     says so of the simulator's), and it is the scenario: the rate
//     served is the closed loop's, its latencies the closed loop's
//     (ClientCap, CapClosedLoop). Otherwise go to 3 with its figures as the
//     reference where the uncapped loop was unbounded.
//  3. The open loop at the rate once more, each pool's simulation capped
//     (sim.Config.ClientCap) at C less the requests the rest of the system
//     holds on average (Little's law, on the reference run of 1 or 2):
//     the prefill pool at C − rate × (router hops + hand-off + the decode
//     pool's time), the decode pool at C − rate × (the prefill pool's time
//     + router hops + hand-off), at least one each. The closed loop's own
//     coupling of the pools is the same (compose: sessions "in prefill"
//     and "away"). A cap that never binds in a pool's simulation leaves
//     that run bit for bit the uncapped one (sim's
//     TestClientCapAboveConcurrencyChangesNothing), so a cap far above
//     the load gives the uncapped scenario exactly.
//
// Limits of 3: each pool's simulation holds a fixed number of slots, the
// cap less the other part's mean, where the client's one semaphore lets a
// pool take the slots the other is not holding at that moment, which
// fluctuate. Where the shared cap can be solved exactly (a prefill pool of
// one exponential server, a decode pool of infinite servers, one cap:
// cappedchain_test.go's Markov chain, at this package's scale of 0.1 s
// prompts and 0.65 s decodes) the rule's prefill time errs low next to
// the regimes' boundary (−11% at the first cap whose closed loop
// sustains the rate: fixed slots cut a pool's bursts harder than the
// shared cap does; −26% one session below, where step 2 takes the closed
// loop instead) and 4% high further above, where ignoring the cap errs by
// +11% to +83%. In the pools' simulations, on
// Llama-3.1-8B, one TP 1 prefill and two TP 1 decode instances on B200,
// 4,096 / 128 tokens (capped_test.go's arrivalCase) at half the prefill
// pool's capacity (10.1 requests/s, 8.0 in flight uncapped): a cap of 8
// leaves the prefill pool's simulation one slot, TTFT 0.127 s (p99
// 0.156), against the uncapped loop's 0.156 (p99 0.354), the closed loop
// of 8 sessions' 0.148 (p99 0.274) and an idle prompt's 0.12; a cap of 10
// gives 0.149 s (p99 0.242), and from twice the uncapped mean in flight
// (16) the uncapped figures to 1%. The pools' two caps are not one
// semaphore either (their sum exceeds C by what the hand-off holds). In a
// finite run the first C requests of 2 leave at t=0, where the client's
// arrivals spread them over C ÷ rate: the first round's prefill queue is
// overstated by at most that spread.
func (e *evaluator) cappedScenario(n int) Scenario {
	C := e.clientCap
	free := *e
	free.clientCap, free.preCap, free.decCap = 0, 0, 0
	ref, pr, dr := free.compose(n)
	closedTried := false
	if ref.Unbounded || inFlight(ref) >= float64(C) {
		c, cpr, cdr := e.closedLoop(C).compose(n)
		closedTried = true
		if !c.Unbounded && c.RequestsPerS > 0 && c.RequestsPerS <= e.rate {
			return asCapped(c, e.rate, C, true)
		}
		if ref.Unbounded {
			ref, pr, dr = c, cpr, cdr
		}
	}
	capped := *e
	capped.preCap, capped.decCap = poolCaps(C, ref, pr, dr)
	s, _, _ := capped.compose(n)
	if s.Unbounded { // the capped pass cannot serve the rate: the closed loop's regime
		c := s
		if !closedTried {
			c, _, _ = e.closedLoop(C).compose(n)
		}
		return asCapped(c, e.rate, C, true)
	}
	return asCapped(s, e.rate, C, false)
}

// closedLoop is e as the closed loop of C sessions (a finite run's: at
// most its requests), no rate, no cap.
func (e *evaluator) closedLoop(C int) *evaluator {
	c := *e
	c.rate, c.clientCap, c.preCap, c.decCap = 0, 0, 0, 0
	c.sessions = C
	if c.pool > 0 {
		c.sessions = min(C, c.pool)
	}
	return &c
}

// asCapped marks s as the capped loop's scenario: the client's rate and
// cap, and whether it is the closed loop of the cap's sessions.
func asCapped(s Scenario, rate float64, C int, closed bool) Scenario {
	s.RatePerS, s.ClientCap, s.CapClosedLoop = rate, C, closed
	if closed {
		s.Sessions = C
	}
	return s
}

// inFlight is the mean number of requests a scenario holds in flight, by
// Little's law: its rate × one request's time from send to last token
// (TTFT + (out − 1) × TPOT).
func inFlight(s Scenario) float64 {
	return s.RequestsPerS * (s.TTFT.Mean + float64(max(0, s.OutputTokens-1))*s.TPOT.Mean)
}

// poolCaps are the slots each pool's simulation gets of the client's cap
// C (cappedScenario, step 3), from the reference scenario s and its pool
// runs: C less the mean number of requests elsewhere (Little's law at the
// rate s serves), rounded, at least one. A request is outside the prefill
// pool for the router's hops, the hand-off (and its notice and any
// analytic decode wait: DecodeAdmitS beyond the decode run's own queue)
// and the decode run's end-to-end time; outside the decode pool for the
// prefill run's end-to-end time and the same hops and hand-off.
func poolCaps(C int, s Scenario, pr, dr sim.Result) (pre, dec int) {
	l := s.RequestsPerS
	between := s.TTFTParts.RouterS + s.TTFTParts.TransferS + max(0, s.TTFTParts.DecodeAdmitS-dr.TTFTParts.QueueS)
	prefillS := pr.E2E.Mean
	if prefillS <= 0 {
		prefillS = pr.TTFT.Mean
	}
	share := func(away float64) int { return max(1, int(math.Round(float64(C)-l*away))) }
	return share(between + dr.E2E.Mean), share(prefillS + between)
}

package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/sim"
)

// scenario composes the system at prompts of n tokens from the two pools'
// simulations and the transfer.
//
// Closed loop of N sessions: the decode pool is simulated as a closed loop
// of the sessions first. If the rate it sustains is below the prefill
// pool's capacity, decode binds: the prefill pool is simulated as a closed
// loop of the N sessions, each back after its time away (router hops, the
// transfer and its time on the decode pool: a finite source, so a few
// sessions never queue behind themselves as Poisson arrivals at their rate
// would), and the decode pool once more with the sessions that are not in
// prefill or transfer (Little's law), then prefill with the new time away.
// Otherwise prefill binds: it runs as a closed loop of the sessions not
// decoding, and decode as a closed loop of the N sessions, each back after
// its prefill and the hand-off (Poisson arrivals at the rate prefill
// delivers when they are more than the decode simulation runs), then
// prefill once more with the sessions that decode run leaves it.
// An open loop runs both pools at the arrival rate. A finite run
// (workload.burst_requests) is then replayed as the client runs it, from
// t=0 (evaluator.finite).
func (e *evaluator) scenario(n int) Scenario {
	if e.rate > 0 && e.clientCap > 0 {
		return e.cappedScenario(n)
	}
	sc, _, _ := e.compose(n)
	return sc
}

// compose is scenario's composition, returning the two pools' runs it
// read (pr the prefill pool's, dr the decode pool's) with it.
func (e *evaluator) compose(n int) (sc Scenario, pr, dr sim.Result) {
	pre, dec := e.pre, e.dec
	out := outputTokens(dec.in, n)
	sc = Scenario{InputTokens: n, OutputTokens: out, RatePerS: e.rate, DecodeSimulated: true}
	// The decode engine reads the blocks its own prefix cache lacks
	// (PromptReuse).
	base := e.connectorTransfer(newTransfer(pre.in, dec.in, dec.uncached(n), e.sameNode, pre.Nodes, dec.Nodes), n)
	if e.recompute {
		base = Transfer{Link: "none"} // no decode engine reads the KV
	}
	muP, muD := pre.prefillCapacity(n), e.decodeCapacity(n, out)
	hop := float64(e.path.Hops) * e.hopS
	var extra, lambda float64
	// prefillSaturated: the closed loop's decode pool sustains more than
	// the prefill pool's capacity, which then binds whatever utilisation
	// its simulation's rate works out to.
	prefillSaturated := false
	// prLoad is the load of the prefill run pr (PrefillQueue reads it).
	var prLoad load
	runPrefill := func(l load) sim.Result {
		prLoad = l
		return simPrefill(pre, n, l, e.seed)
	}
	decode := func(l load) sim.Result {
		if e.recompute {
			extra = 0
			return simRecompute(dec, n, out, l, e.seed)
		}
		r, x, ok := e.simDecode(n, out, l)
		if !ok {
			sc.DecodeSimulated = false
			r, x = steadyDecode(dec, n, out, l), 0
		}
		extra = x
		return r
	}
	if e.rate > 0 {
		lambda = e.rate
		pr = runPrefill(load{rate: lambda, cap: e.preCap})
		dr = decode(load{rate: lambda, cap: e.decCap})
		sc.Unbounded = pr.Overloaded || dr.Overloaded || lambda >= muP || lambda >= muD
	} else {
		N := e.sessions
		sc.Sessions = N
		dr = decode(load{sessions: N})
		lambda = dr.OutputTokPerS / float64(out)
		if lambda <= 0 { // the decode pool serves nothing (its requests never fit)
			sc.Binding, sc.Unbounded, sc.Transfer = BindDecode, true, base
			return sc, pr, dr
		}
		if lambda < muP {
			// The prefill pool sees the N sessions, each back after the
			// hand-off and its time on the decode pool.
			away := func() float64 {
				x := handoffAt(base, lambda).TimeS
				if UseDecodeTimeAway {
					return hop + x + e.noticeWait(dr, x) + dr.E2E.Mean + extra
				}
				return hop + x + dr.E2E.Mean + extra
			}
			// The prefill pool's sessions, as its simulation can run them
			// (loopPrefillLoad).
			prefillLoad := func() load { return e.loopPrefillLoad(n, N, lambda, away) }
			pr = runPrefill(prefillLoad())
			if UseDecodeTimeAway {
				// The decode pool sees the N sessions too, each back after
				// its prefill (queue included), the router hops, the
				// transfer and the wait to notice it (the closed loop's
				// own time away: Little's law then holds for the whole
				// loop), then prefill once more with the decode pool's
				// new time.
				for range decodeAwayRounds {
					if pr.Overloaded {
						break
					}
					d2 := decode(load{sessions: N, thinkS: e.decodeAway(pr, dr, base, lambda, hop), rate: lambda})
					if d2.Overloaded || d2.Requests <= 0 || d2.OutputTokPerS <= 0 {
						break
					}
					dr, lambda = d2, d2.OutputTokPerS/float64(out)
					pr = runPrefill(prefillLoad())
				}
			} else {
				inPrefill := lambda * (pr.TTFT.Mean + handoffAt(base, lambda).TimeS + hop)
				if nd := N - int(math.Round(inPrefill)); !pr.Overloaded && nd >= 1 && nd < N-1 {
					dr = decode(load{sessions: nd})
					lambda = dr.OutputTokPerS / float64(out)
					pr = runPrefill(prefillLoad())
				}
			}
		} else {
			prefillSaturated = true
			lambda = muP
			// The prefill pool: the N sessions, each back after the
			// hand-off and the decode pool, when its simulation runs them
			// all; else the share of them not decoding (Little's law) with
			// no time away, the pool being saturated.
			finite := prefillRunsAll(pre, n, N)
			prefill := func() sim.Result {
				away := hop + handoffAt(base, lambda).TimeS + dr.E2E.Mean
				if UseDecodeTimeAway {
					away += e.noticeWait(dr, handoffAt(base, lambda).TimeS)
				}
				if finite {
					return runPrefill(load{sessions: N, thinkS: away})
				}
				prLoad = load{} // a blend of two runs: no one run's steps to read
				return prefillAt(pre, n, float64(N)-lambda*away, e.seed)
			}
			pr = prefill()
			lambda = pr.OutputTokPerS // one output token per prefill request
			// The decode pool sees the N sessions, each back after its
			// prefill (queue included) and the hand-off.
			back := pr.TTFT.Mean + hop + handoffAt(base, lambda).TimeS
			if UseDecodeTimeAway {
				back = e.decodeAway(pr, dr, base, lambda, hop)
			}
			if d2 := decode(load{sessions: N, thinkS: back, rate: lambda}); !d2.Overloaded && d2.Requests > 0 {
				dr = d2
				// The saturated decode run overstated the time a request
				// spends decoding: once more with the time the decode pool
				// at this rate takes.
				pr = prefill()
				lambda = pr.OutputTokPerS
			}
		}
	}
	if e.pool > 0 {
		// A finite run (workload.burst_requests): the client's run, on
		// top of the steady figures (finite.go).
		pr, dr, lambda = e.finite(n, out, muP, hop, base, pr, lambda, decode)
		sc.Burst, sc.Unbounded = e.pool, false
		if lambda <= 0 {
			sc.Binding, sc.Unbounded, sc.Transfer = BindDecode, true, base
			return sc, pr, dr
		}
	}
	x := handoffAt(base, lambda)
	closed := false
	if UseClosedLoopNICMVA && e.rate <= 0 && e.pool <= 0 && e.sessions > 0 && !e.recompute && !prefillSaturated &&
		max(ratio(lambda, muP), ratio(lambda, muD)) < BindsAt {
		// No pool binds: the NICs priced for the N sessions (closedNIC),
		// each away from them for the rest of its cycle as the pools' runs
		// give it (TTFT less the transfer, and the decode after the first
		// token); the wait to notice the read follows the transfer's
		// time, so twice.
		solve := func(pr, dr sim.Result) (Transfer, float64, bool) {
			y, lam, ok := x, lambda, false
			for range 2 {
				notice := e.noticeWait(dr, y.TimeS)
				away := pr.TTFT.Mean + dr.TTFT.Mean + hop + notice + extra + float64(out-1)*dr.TPOT.Mean
				z, X, fine := closedNIC(base, e.sessions, away)
				if !fine || max(ratio(X, muP), ratio(X, muD)) >= BindsAt {
					return x, lambda, false
				}
				y, lam, ok = z, X, true
			}
			return y, lam, ok
		}
		ran := x // the hand-off the pools' runs were given
		if y, lam, ok := solve(pr, dr); ok {
			x, lambda, closed = y, lam, true
		}
		// The pools ran with the hand-off the open formula prices at
		// their rate; run them again with the loop's own (UseClosedRatePools)
		// unless it moves a session's cycle by less than the tolerance.
		cycle := pr.TTFT.Mean + hop + ran.TimeS + dr.E2E.Mean
		moot := math.Abs(x.TimeS-ran.TimeS) < closedRateTolerance*cycle
		for i := 0; closed && !moot && UseClosedRatePools && UseDecodeTimeAway && i < closedRateRounds; i++ {
			keep, keepSim, keepLoad := extra, sc.DecodeSimulated, prLoad
			t := x.TimeS
			d2 := decode(load{sessions: e.sessions, thinkS: pr.TTFT.Mean + hop + t + e.noticeWait(dr, t), rate: lambda})
			var p2 sim.Result
			ok := !d2.Overloaded && d2.Requests > 0 && d2.OutputTokPerS > 0
			if ok {
				p2 = runPrefill(load{sessions: e.sessions, thinkS: hop + t + e.noticeWait(d2, t) + d2.E2E.Mean + extra})
				ok = !p2.Overloaded
			}
			var y Transfer
			var lam float64
			if ok {
				pr0, dr0 := pr, dr
				pr, dr = p2, d2
				if y, lam, ok = solve(pr, dr); !ok {
					pr, dr = pr0, dr0
				}
			}
			if !ok {
				extra, sc.DecodeSimulated, prLoad = keep, keepSim, keepLoad
				break
			}
			moved := math.Abs(lam/lambda - 1)
			x, lambda = y, lam
			if moved < closedRateTolerance {
				break
			}
		}
	}
	if x.Saturated && !closed {
		sc.Unbounded = sc.Unbounded || e.rate > 0
		lambda = min(lambda, x.MaxRatePerS)
		x.TimeS = max(x.AloneS, closedTransferWait(e.sessions, lambda, pr, dr, hop))
	}
	// The decode engine notices the finished read at a step's end, not
	// when it ends (noticedRead): that wait is part of its admission.
	notice := 0.0
	if !e.recompute && !e.syncLoad() { // no read to notice
		notice = noticedRead(dec, dr, x.TimeS, e.sessions) - x.TimeS
	}
	if UseLoopQueueAtDecode && e.rate <= 0 && e.pool <= 0 && e.sessions > 0 && !e.recompute && !prefillSaturated &&
		!x.Saturated && !decodeRunsAll(dec, n, out, e.sessions) {
		// The decode pool's run did not hold the loop's sessions
		// (loopQueue): the sessions it left out wait for its slots.
		cycle := pr.TTFT.Mean + hop + x.TimeS + notice + extra + dr.TTFT.Mean + float64(out-1)*dr.TPOT.Mean
		was := extra
		lambda, extra = loopQueue(e.sessions, lambda, cycle, extra)
		sc.LoopQueueS = extra - was
	}
	sc.Transfer = x
	sc.RequestsPerS = lambda
	sc.OutputTokPerS, sc.TotalTokPerS = lambda*float64(out), lambda*float64(n+out)
	sc.PrefillUtilization, sc.DecodeUtilization = ratio(lambda, muP), ratio(lambda, muD)
	sc.Binding = binding(sc.PrefillUtilization, sc.DecodeUtilization, x.Utilization)
	switch {
	case sc.LoopQueueS > 0:
		// Sessions wait for the decode pool's slots (loopQueue): it is
		// saturated, whatever its rate against its full-batch capacity
		// at the mean context (decodeCapacity).
		sc.Binding = BindDecode
	case sc.Unbounded || x.Saturated || max(sc.PrefillUtilization, sc.DecodeUtilization, x.Utilization) >= BindsAt:
		// the busiest part, near saturation
	case prefillSaturated:
		sc.Binding = BindPrefill
	case e.rate <= 0 && !e.recompute && e.decodeFlat(n, out, lambda*float64(out)*dr.TPOT.Mean):
		sc.Binding, sc.DecodeFlat = BindDecode, true
	case e.rate > 0:
		// No part near saturation: an open loop's rate is its arrivals'.
		sc.Binding = BindArrivals
	default:
		// ... and a closed loop's its sessions' (Little's law).
		sc.Binding = BindSessions
	}
	sc.TPOT = dr.TPOT
	sc.Truncated = pr.Truncated || dr.Truncated
	if sc.Binding == BindDecode || sc.LoopQueueS > 0 {
		sc.DecodeSlots = dec.decodeBatch(n, out) * dec.ranks()
		sc.DecodeKVBound = sc.Binding == BindDecode && dec.decodeBatch(n, out) < max(1, dec.in.MaxNumSeqs)
	}
	sc.TTFTParts = TTFTParts{FrontendS: pr.TTFTParts.FrontendS + dr.TTFTParts.FrontendS, PrefillQueueS: queueOf(pr),
		PrefillS: pr.TTFTParts.PrefillS, RouterS: hop, TransferS: x.TimeS, DecodeAdmitS: queueOf(dr) + extra + notice,
		FirstDecodeS: dr.TTFTParts.PrefillS, DecodeAdmit: AdmitParts{ReadNoticeS: notice}}
	if !sc.Unbounded {
		// The hand-off enters as a distribution of its mean x.TimeS
		// (UseHandoffDistribution); the mean is convolve's.
		sc.TTFT = convolveHandoff(pr, dr, hop+x.TimeS+notice+extra, x.handoff(), x.TimeS)
	}
	sc.Lease = e.lease(n, lambda, hop+x.TimeS+queueOf(dr)+extra)
	if UsePrefillQueueReason && e.pool <= 0 && (prLoad.sessions > 0 || prLoad.rate > 0) {
		sc.PrefillQueue = prefillQueue(pre, n, prLoad, pr, e.seed)
	}
	return sc, pr, dr
}

// queueOf is run r's mean wait in its engine's queue: its mean TTFT less
// its API server and its prompt's steps. The simulator's closed loops
// queue the sessions they do not simulate analytically and add that wait
// to TTFT and, since simparts41, to TTFTParts.QueueS too (sim's
// scaleBack), so the two readings agree; read this way a pool's parts add
// up to its mean TTFT whatever the run states (QA session 41: a prefill
// run's 22 s of analytic wait was in the mean TTFT and in no part).
func queueOf(r sim.Result) float64 {
	q := r.TTFT.Mean - r.TTFTParts.FrontendS - r.TTFTParts.PrefillS
	if math.Abs(q-r.TTFTParts.QueueS) <= 1e-9*max(1, r.TTFT.Mean) {
		return r.TTFTParts.QueueS // the same wait, as the run states it (no rounding of its own)
	}
	return max(0, q)
}

// loopPrefillLoad is the load a closed loop of N sessions puts on the
// prefill pool when decode binds or no pool does, each session away for
// away() between its prompts: the loop itself when the pool's simulation
// runs every session (prefillRunsAll); else the Poisson stream at the
// loop's rate lambda, as simDecode runs more sessions than it simulates.
// The simulator would otherwise queue the sessions past two per sequence
// a rank holds as always waiting in its queue, which sessions away on the
// decode pool are not (QA session 41: 22 of 64 sessions each added 1 s to
// every prompt's wait, 22 s of a 36.9 s TTFT that Little's law put at the
// decode pool's KV).
func (e *evaluator) loopPrefillLoad(n, sessions int, lambda float64, away func() float64) load {
	if UseLoopQueueAtDecode && !prefillRunsAll(e.pre, n, sessions) && lambda > 0 {
		return load{rate: lambda}
	}
	return load{sessions: sessions, thinkS: away()}
}

// UseLoopQueueAtDecode closes a closed loop whose decode pool's
// simulation did not hold its sessions (decodeRunsAll false: more than
// two per sequence its ranks run at once, its KV cache or max_num_seqs,
// so it ran them as the Poisson stream at their rate): by Little's law
// the loop's N sessions are each in one place, so the sessions neither
// in prefill, the hand-off nor decoding wait for the decode pool's slots
// (loopQueue), and the prefill pool is not run as a loop whose sessions
// its simulation would queue as always waiting (loopPrefillLoad). Off:
// the prefill run counted its unsimulated sessions as queued on it and
// the decode pool's Poisson run its open queue at the loop's rate, so the
// loop's TTFT and rate broke Little's law (QA session 41: GLM-5-FP8 on
// 2 × 8 H200, 64 sessions of 16000 + 1000 tokens whose decode KV holds
// 20: 0.73 requests/s × (36.9 s + 999 × 26.8 ms) = 46.6 of 64 sessions).
var UseLoopQueueAtDecode = true

// loopQueue closes a closed loop of sessions at rate lambda whose
// request's time (TTFT and the output after the first token) is cycle
// seconds, extra of it the decode pool's wait beyond its simulation's:
// Little's law, rate × cycle = sessions. When the loop holds more
// sessions than rate × cycle, the rest wait for the decode pool's slots
// at the rate it serves: each waits sessions / rate − cycle more
// (added to extra). When it holds fewer, the decode pool's run at lambda
// overstated the rate the sessions sustain: the rate is sessions / cycle.
func loopQueue(sessions int, lambda, cycle, extra float64) (float64, float64) {
	if lambda <= 0 || cycle <= 0 {
		return lambda, extra
	}
	n := float64(sessions)
	if w := n/lambda - cycle; w > 0 {
		return lambda, extra + w
	}
	return n / cycle, extra
}

// UseDecodeTimeAway runs a closed loop's decode pool, when it binds or
// no part does, as a loop of all N sessions each away for its prefill
// (queue included), router hops, transfer and the wait to notice the read
// (evaluator.decodeAway), as the prefill pool already runs with its time
// away: the loop then obeys Little's law, rate × (TTFT + (out − 1) × TPOT)
// = N (TestClosedLoopLittle). Off: the decode pool ran N − round(rate ×
// time in prefill) sessions with no time away, and only when that was
// below N − 1, so a loop of one or two sessions (and 128 sessions whose
// prefill held one of them) decoded with no session ever away: 1.21
// requests/s on the P2pNccl row's loop of two where Little's law with the
// model's own TTFT and TPOT gives 1.06 (QA session 38).
var UseDecodeTimeAway = true

// UseClosedRatePools runs a closed loop's pools again at the rate the
// NICs' mean value analysis gives the loop (closedNIC's X(N)), with the
// hand-off it prices in their time away, until the rate moves by less
// than closedRateTolerance (at most closedRateRounds runs of each pool):
// the pools' first runs priced the hand-off by the open stream's formula
// at their own rate (handoffAt), so their TTFT and TPOT were those of
// another load than the loop's (testdata/pdleft-llama8b-slownic.yaml at
// 10 Gbit/s and 8 sessions: pools run at 2.57 requests/s for a loop of
// 1.19; TestClosedRatePools). Adopted: it moves no calibration cell
// (docs/calibration-pd.md; run whatever the cycle moved, it moved one,
// anyscale-h100-spread-p1tp4-d1tp4-c48's TTFT median −50% → −49%, and the
// P/D example's figures by < 2%, for 14% more CPU in check). Off: the
// pools keep those runs.
var UseClosedRatePools = true

// closedRateRounds and closedRateTolerance bound UseClosedRatePools'
// fixed point; the pools are not run again when the loop's hand-off moves
// a session's cycle (prefill, hops, hand-off, decode) by less than the
// tolerance (fast NICs: the P/D example's 24 ms transfer in a 230 s
// cycle).
const (
	closedRateRounds    = 3
	closedRateTolerance = 0.01
)

// decodeAwayRounds is how many times the decode pool is run again with the
// prefill pool's time (each followed by the prefill pool with the decode
// pool's): one holds Little's law within 0.1% on the QA specs at 1 to 128
// sessions (TestClosedLoopLittle), a second moves the rate by less than
// 0.05%.
const decodeAwayRounds = 1

// decodeAway is a closed-loop session's mean time away from the decode
// pool between two of its requests: its prefill on the prefill run pr
// (queue and API server included), the router hops, the KV transfer at
// rate lambda and the wait until the decode engine notices it
// (noticedRead, on the decode run dr).
func (e *evaluator) decodeAway(pr, dr sim.Result, base Transfer, lambda, hop float64) float64 {
	x := handoffAt(base, lambda).TimeS
	return pr.TTFT.Mean + hop + x + e.noticeWait(dr, x)
}

// noticeWait is how long the decode engine of run dr takes to notice a
// read of readS seconds beyond the read itself (noticedRead; 0 when no
// read is noticed: recompute, or a connector that loads synchronously).
func (e *evaluator) noticeWait(dr sim.Result, readS float64) float64 {
	if e.recompute || e.syncLoad() {
		return 0
	}
	return noticedRead(e.dec, dr, readS, e.sessions) - readS
}

// decodeFlat reports that the closed loop's decode pool, decoding c
// requests (Little's law: the rate × output tokens × TPOT), is on the flat
// of its throughput curve: every slot taken (sim.RunSlots: max_num_seqs or
// what the KV cache holds), or twice the requests (within the slots) add
// less than saturationGain in steady decode at the mean context
// (perf.StepModel.DecodeAt) — the colocated decode curve's criterion of
// saturation (perf.Saturation: "saturates near N sessions"). More sessions
// would then lengthen TPOT more than they raise the rate, whatever the
// pool's utilisation against its full-batch capacity.
func (e *evaluator) decodeFlat(n, out int, c float64) bool {
	p := e.dec
	slots := p.decodeBatch(n, out) * p.ranks()
	k := max(1, int(math.Round(c)))
	if k >= slots {
		return true
	}
	ctx := float64(n) + float64(out)/2
	a, _ := p.sm.DecodeAt(k, ctx)
	b, _ := p.sm.DecodeAt(min(2*k, slots), ctx)
	return b.OutputTokPerS < (1+saturationGain)*a.OutputTokPerS
}

// decodeCapacity is the decode pool's requests per second at prompts of n
// and out output tokens; a pool that computes every prompt itself
// (recompute) spends each request's prompt time and decode time one after
// the other, 1 / (1/prefill capacity + 1/decode capacity), a lower bound
// (vLLM runs a prompt's chunk in the same step as the decodes).
func (e *evaluator) decodeCapacity(n, out int) float64 {
	d := e.dec.decodeCapacity(n, out)
	if !e.recompute {
		return d
	}
	p := e.dec.prefillCapacity(n)
	if p <= 0 || d <= 0 {
		return 0
	}
	return 1 / (1/p + 1/d)
}

// noticedRead is how long a request waits on the decode engine from the
// start of its KV read (which the engine issues at the start of the step
// that admits it) until it is scheduled, for a read of readS seconds:
// vLLM's engine learns that a read finished only from a step's output and
// schedules the request at the next step (vllm.Release.KVLoadNoticedAtStepEnd).
// When other requests are decoding, steps of the decode run's mean length
// s follow back to back: a read shorter than half a step is noticed at the
// end of the step it started in (s), a longer one half a step after it
// ends on average (readS + s/2, the steps' lengths vary); the two meet at
// readS = s/2. When nothing else runs, the engine steps without a forward
// pass (kv_connector_no_forward) and notices the read as it ends. The
// chance that others are decoding is that of an infinite-server queue
// holding at least one of them, 1 − exp(−L), L the decode run's mean
// running requests per engine less the arriving session's own share in a
// closed loop of sessions (a lone session never finds another). The result
// is never below readS, and never falls as readS grows.
func noticedRead(dec *Pool, dr sim.Result, readS float64, sessions int) float64 {
	s := dr.MeanStepS
	if s <= 0 || !dec.in.Release().KVLoadNoticedAtStepEnd() {
		return readS
	}
	u, _ := unitOf(dec)
	others := dr.MeanRunning / float64(max(1, u.engines()))
	if sessions > 0 {
		others *= float64(sessions-1) / float64(sessions)
	}
	busy := 1 - math.Exp(-max(0, others))
	return busy*max(s, readS+s/2) + (1-busy)*readS
}

// prefillAt runs the prefill pool as a closed loop of s sessions, s a
// share of the loop's sessions that need not be whole (at least one): the
// runs at ⌊s⌋ and ⌊s⌋ + 1 sessions, interpolated. Rounding s instead made
// TTFT jump by a whole session's wait where a faster hand-off left one
// session more to the prefill pool.
func prefillAt(pre *Pool, n int, s float64, seed uint64) sim.Result {
	lo := max(1, int(math.Floor(s)))
	a := simPrefill(pre, n, load{sessions: lo}, seed)
	f := s - float64(lo)
	if f <= 0 {
		return a
	}
	return blend(a, simPrefill(pre, n, load{sessions: lo + 1}, seed), f)
}

// blend is a + f·(b − a) for the figures the composition reads (TTFT and
// its parts and quantiles, end-to-end time, throughput); a run cut short or
// overloaded marks the blend so.
func blend(a, b sim.Result, f float64) sim.Result {
	lerp := func(x, y float64) float64 { return x + f*(y-x) }
	pc := func(x, y sim.Percentiles) sim.Percentiles {
		return sim.Percentiles{Mean: lerp(x.Mean, y.Mean), P50: lerp(x.P50, y.P50), P90: lerp(x.P90, y.P90), P95: lerp(x.P95, y.P95), P99: lerp(x.P99, y.P99)}
	}
	r := a
	r.TTFT, r.E2E, r.TPOT = pc(a.TTFT, b.TTFT), pc(a.E2E, b.E2E), pc(a.TPOT, b.TPOT)
	r.OutputTokPerS, r.TotalTokPerS = lerp(a.OutputTokPerS, b.OutputTokPerS), lerp(a.TotalTokPerS, b.TotalTokPerS)
	r.TTFTParts = sim.TTFTParts{FrontendS: lerp(a.TTFTParts.FrontendS, b.TTFTParts.FrontendS),
		QueueS: lerp(a.TTFTParts.QueueS, b.TTFTParts.QueueS), PrefillS: lerp(a.TTFTParts.PrefillS, b.TTFTParts.PrefillS),
		PromptS: lerp(a.TTFTParts.PromptS, b.TTFTParts.PromptS)}
	for i := range r.TTFTQuantiles {
		r.TTFTQuantiles[i] = lerp(a.TTFTQuantiles[i], b.TTFTQuantiles[i])
	}
	r.Truncated, r.Overloaded = a.Truncated || b.Truncated, a.Overloaded || b.Overloaded
	return r
}

// closedTransferWait is the mean transfer time of a closed loop whose
// NICs bind: the sessions neither in prefill nor decode wait on them
// (Little's law).
func closedTransferWait(sessions int, lambda float64, pr, dr sim.Result, hop float64) float64 {
	if sessions <= 0 || lambda <= 0 {
		return 0
	}
	return float64(sessions)/lambda - pr.TTFT.Mean - dr.E2E.Mean - hop
}

// ratio is a/b, 0 when b is not positive (an unknown capacity).
func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// binding names the busiest part (the scenario names it only when it is
// near saturation, BindsAt).
func binding(p, d, x float64) string {
	switch {
	case x > p && x > d:
		return BindTransfer
	case p > d:
		return BindPrefill
	}
	return BindDecode
}

// lease is the prefill pool's KV held for transfers at rate requests/s,
// each held for holdS seconds (router hop, decode admission, transfer).
func (e *evaluator) lease(n int, rate, holdS float64) Lease {
	p := e.pre
	bs := max(1, p.in.BlockSize)
	l := Lease{KVTokensPerRank: p.KVTokensPerRank}
	l.HeldRequests = rate / float64(p.ranks()) * holdS
	l.NeededTokens = l.HeldRequests*float64((n+bs-1)/bs*bs) + float64(max(n, p.in.MaxNumBatchedTokens))
	l.Fits = l.NeededTokens <= float64(p.KVTokensPerRank)
	return l
}

// steadyDecode stands for a decode simulation too large to run rank by
// rank: steady decoding of the load's running requests (perf.DecodeAt),
// every request at that pace, one step to the first token.
func steadyDecode(p *Pool, n, out int, l load) sim.Result {
	conc := l.sessions
	if conc <= 0 {
		conc = int(math.Ceil(l.rate * float64(out) * 0.02)) // refined below
	}
	slots := p.decodeBatch(n, out) * p.ranks()
	conc = max(1, min(conc, slots))
	dp, st := p.sm.DecodeAt(conc, float64(n)+float64(out)/2)
	if l.sessions <= 0 && dp.TPOTS > 0 { // Little's law: running = rate × decode time
		conc = max(1, min(slots, int(math.Ceil(l.rate*float64(out)*dp.TPOTS))))
		dp, st = p.sm.DecodeAt(conc, float64(n)+float64(out)/2)
	}
	t := sim.Percentiles{Mean: dp.TPOTS, P50: dp.TPOTS, P90: dp.TPOTS, P95: dp.TPOTS, P99: dp.TPOTS}
	first := sim.Percentiles{Mean: st.TotalS, P50: st.TotalS, P90: st.TotalS, P95: st.TotalS, P99: st.TotalS}
	e2e := float64(out) * dp.TPOTS
	return sim.Result{Requests: conc, TTFT: first, TPOT: t, E2E: sim.Percentiles{Mean: e2e, P50: e2e, P90: e2e, P95: e2e, P99: e2e},
		OutputTokPerS: dp.OutputTokPerS, MeanRunning: float64(conc), MeanStepS: st.TotalS, TTFTParts: sim.TTFTParts{PrefillS: st.TotalS}}
}

package pd

// UseClosedLoopNICMVA prices a closed loop's KV transfers over the NICs
// for its N sessions, not for an endless stream of arrivals at its rate
// (task pdleft). Off, a transfer at NIC utilisation u takes its wire time
// ÷ (1 − u) (Transfer.at: the fair sharing of an open stream, M/M/1-PS),
// whatever the sessions: a lone session then waits behind transfers that
// do not exist, and the transfer time read at the loop's final rate is
// not the one its pools' simulations ran with (the time away they were
// given priced the NICs at the first decode run's rate), so the loop
// breaks Little's law where the NICs are busy. Measured on
// testdata/pdleft-llama8b-slownic.yaml (10 Gbit/s, transfer alone
// 839 ms): 1 session holds 0.79 of 1 in Little's law (transfer 1.09 s for
// a session that never shares the NIC), 2 sessions 2.93 of 2 (+46%,
// transfer 2.15 s, TTFT p99 9.73 s); at 25 Gbit/s 8 sessions hold 333 of
// 8 (u = 0.997 unsaturated: a 110 s transfer).
//
// On, when no pool binds (its rate is then the pool's, and the transfer
// is priced as before), the NICs are a processor-sharing station of the
// loop solved by exact mean value analysis (Reiser & Lavenberg, "Mean-
// Value Analysis of Closed Multichain Queuing Networks", J. ACM 27(2),
// 1980): with k sessions, an arriving transfer finds the station's mean
// queue of k − 1 sessions, so its time beyond the fixed latency and
// postings is R(k) = w + D·Q(k − 1), w its wire time alone and D = 1 ÷
// (the most requests per second the NICs carry) each request's NIC time;
// X(k) = k ÷ (Z + fixed + R(k)), Q(k) = X(k)·R(k), Z the rest of a
// session's cycle as the pools' runs give it (TTFT less the transfer,
// and (out − 1) × TPOT). The open formula is its limit (R = w + D·λR ⇒
// R = w ÷ (1 − λD)); one session never waits (R(1) = w); X never exceeds
// what the NICs carry. The loop's rate is X(N), so Little's law holds,
// rate × (TTFT + (out − 1) × TPOT) = N, and the hand-off's distribution
// is the finite-source queue a transfer finds (closedNIC), bounded by the
// other sessions' transfers, not the open stream's exponential tail. On
// since it was built (the open formula breaks Little's law by up to
// +4,066% where the NICs are busy; adopting it moved one calibration cell,
// spark-gb10's throughput −24% → −23%, and no held-out figure). The pools'
// simulations are then run again at X(N) (UseClosedRatePools).
var UseClosedLoopNICMVA = true

// closedNIC is t (the hand-off before any load, Transfer.at's input) for a
// closed loop of sessions whose cycle away from the NICs is awayS
// (UseClosedLoopNICMVA); rate is the loop's X(sessions). ok is false for a
// hand-off it does not price: no NIC (the pools share a node), a
// connector that overlaps the transfer with the prefill (Overlap), a
// blend of same-node and NIC hand-offs, or no sessions.
//
// Its distribution (Transfer.closedPts, for TTFT's percentiles) is the
// queue an arriving transfer finds, k of the other N − 1 sessions' on the
// NICs with the probability the finite-source station gives it (the
// arrival theorem: the station's queue with one session fewer; p_n(k) =
// D·X(n)·p_{n−1}(k − 1) for k ≥ 1, the exact marginal of a single
// processor-sharing server with exponential demand D), each k taking
// w + (R − w)·k ÷ E[k]: a time bounded by the N − 1 others, whose mean is
// R. The open stream's exponential tail (nicWait) has no such bound: two
// sessions' transfer cannot take longer than two transfers do.
func closedNIC(t Transfer, sessions int, awayS float64) (out Transfer, rate float64, ok bool) {
	if t.MaxRatePerS <= 0 || t.Overlap != nil || t.SameNodeShare > 0 || t.SameNode != nil || sessions <= 0 || awayS < 0 {
		return t, 0, false
	}
	fixed := t.LatencyS + t.PostS
	w := max(0, t.AloneS-fixed)
	d := 1 / t.MaxRatePerS
	var q, r, x float64
	p := []float64{1} // p_{k−1}(·): the queue an arrival at k sessions finds
	for k := 1; k <= sessions; k++ {
		if k > 1 { // p_{k−1} from p_{k−2} with X(k − 1) (x holds it)
			next := make([]float64, 0, len(p)+1)
			next = append(next, 0)
			sum := 0.0
			for _, v := range p {
				if v *= d * x; v > 1e-12 || len(next) == 1 {
					next = append(next, v)
					sum += v
				} else {
					break // the tail beyond: below any quantile TTFT reads
				}
			}
			next[0] = max(0, 1-sum)
			p = next
		}
		r = w + d*q
		x = float64(k) / (awayS + fixed + r)
		q = x * r
	}
	t.TimeS, t.Utilization, t.Saturated = fixed+r, x*d, false
	t.closed, t.closedPts = true, closedPoints(p, fixed, w, r)
	return t, x, true
}

// closedPoints is the hand-off time's distribution for the queue found,
// p[k] the probability of k others: fixed + w + (r − w)·k ÷ E[k] (mean
// fixed + r), in at most handoffBins + 1 points (consecutive k merged into
// equal-probability bins at their conditional means, keeping the mean).
func closedPoints(p []float64, fixed, w, r float64) []handoffPoint {
	total, mean := 0.0, 0.0
	for k, v := range p {
		total += v
		mean += float64(k) * v
	}
	if total <= 0 || mean <= 0 || r <= w {
		return []handoffPoint{{fixed + w, 1}}
	}
	mean /= total
	at := func(k int) float64 { return fixed + w + (r-w)*float64(k)/mean }
	out := []handoffPoint{{at(0), p[0] / total}}
	var acc, sumP, sumS float64
	for k := 1; k < len(p); k++ {
		v := p[k] / total
		acc += v
		sumP += v
		sumS += v * at(k)
		if acc*handoffBins >= float64(len(out)) || k == len(p)-1 {
			if sumP > 0 {
				out = append(out, handoffPoint{sumS / sumP, sumP})
			}
			sumP, sumS = 0, 0
		}
	}
	return out
}

package sim

import (
	"math"
	"slices"
)

// account integrates queue lengths over the step for the time averages.
func (s *simulator) account(dt float64) { s.accountSegment(dt, 1) }

// accountSegment integrates queue lengths over steps steps lasting dt in
// all.
func (s *simulator) accountSegment(dt float64, steps int) {
	if s.done < s.cfg.Warmup {
		return
	}
	if s.startT == 0 && s.res.Steps == 0 {
		s.startT = s.now
	}
	var run, wait int
	for i := range s.ranks {
		run += len(s.ranks[i].running)
		wait += len(s.ranks[i].waiting)
	}
	s.areaRun += float64(run) * dt
	s.areaWait += float64(wait) * dt
	s.busy += dt
	s.res.Steps += steps
}

// advance applies the step that just ended: prefill chunks progress (the
// last chunk samples the first token), decodes emit a token, finished
// requests leave and, in closed loop, their session sends the next one.
func (s *simulator) advance() {
	for i := range s.ranks {
		rk := &s.ranks[i]
		kept := 0
		for j := range rk.running {
			r := &rk.running[j]
			if n := r.sched; n > 0 {
				r.sched = 0
				if r.done < r.prompt {
					r.done += n
					if r.done >= r.prompt {
						s.emit(r)
					}
				} else {
					s.emitDecode(r)
				}
			}
			if r.out >= s.cfg.OutputTokens {
				rk.kvUsed -= r.blocks
				s.finish(*r)
				continue
			}
			if kept != j {
				rk.running[kept] = *r
			}
			kept++
		}
		rk.running = rk.running[:kept]
	}
}

// emit records one output token of r at the current time.
func (s *simulator) emit(r *simReq) {
	if r.out == 0 {
		r.firstTok = s.now
	}
	r.out++
	if s.done >= s.cfg.Warmup {
		s.outTok++
	}
}

// finish records a completed request and starts its session's next one.
func (s *simulator) finish(r simReq) {
	if s.done >= s.cfg.Warmup {
		rec := simRecord{ttft: r.firstTok - r.arrival, e2e: s.now - r.arrival}
		if s.cfg.OutputTokens > 1 {
			rec.tpot = (s.now - r.firstTok) / float64(s.cfg.OutputTokens-1)
		}
		s.measured = append(s.measured, rec)
		s.inTok += s.cfg.InputTokens
	}
	s.done++
	if r.session >= 0 && (s.cfg.Pool <= 0 || s.sent < s.cfg.Pool) {
		s.sent++
		s.enqueue(simReq{arrival: s.now, session: r.session, prompt: s.cfg.InputTokens})
	}
}

// result turns the records into percentiles and throughput.
func (s *simulator) result() Result { return pooled([]*simulator{s}) }

// pooled is the result of several independent runs taken together: their
// records in one distribution, their tokens over their summed measured
// time.
func pooled(ss []*simulator) Result {
	var res Result
	var span, busy, areaRun, areaWait float64
	var outTok, inTok int
	var recs []simRecord
	for _, s := range ss {
		res.Preemptions += s.res.Preemptions
		res.Steps += s.res.Steps
		res.SimulatedS += s.now
		res.Stalled = res.Stalled || s.res.Stalled
		res.Overloaded = res.Overloaded || s.res.Overloaded
		span += s.now - s.startT
		busy += s.busy
		areaRun += s.areaRun
		areaWait += s.areaWait
		outTok += s.outTok
		inTok += s.inTok
		recs = append(recs, s.measured...)
	}
	res.Requests = len(recs)
	if span > 0 {
		res.OutputTokPerS = float64(outTok) / span
		res.TotalTokPerS = float64(outTok+inTok) / span
		res.MeanRunning = areaRun / span
		res.MeanWaiting = areaWait / span
		res.MeanStepS = busy / float64(max(1, res.Steps))
	}
	pick := func(f func(simRecord) float64) Percentiles {
		v := make([]float64, len(recs))
		for i, r := range recs {
			v[i] = f(r)
		}
		return percentilesOf(v)
	}
	res.TTFT = pick(func(r simRecord) float64 { return r.ttft })
	res.TTFTQuantiles = quantiles(recs, func(r simRecord) float64 { return r.ttft })
	res.TPOT = pick(func(r simRecord) float64 { return r.tpot })
	res.E2E = pick(func(r simRecord) float64 { return r.e2e })
	return res
}

// quantiles are the nearest-rank k/CDFPoints quantiles of f over the
// records (zero without records).
func quantiles(rs []simRecord, f func(simRecord) float64) (out [CDFPoints]float64) {
	if len(rs) == 0 {
		return out
	}
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	slices.Sort(v)
	for k := range out {
		out[k] = v[max(0, int(math.Ceil(float64(k+1)/CDFPoints*float64(len(v))))-1)]
	}
	return out
}

// percentilesOf sorts v and reads the nearest-rank percentiles.
func percentilesOf(v []float64) Percentiles {
	if len(v) == 0 {
		return Percentiles{}
	}
	slices.Sort(v)
	q := func(p float64) float64 { return v[max(0, int(math.Ceil(p*float64(len(v))))-1)] }
	var sum float64
	for _, x := range v {
		sum += x
	}
	return Percentiles{Mean: sum / float64(len(v)), P50: q(0.50), P90: q(0.90), P95: q(0.95), P99: q(0.99)}
}

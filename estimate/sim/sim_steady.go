package sim

import (
	"math"
	"sort"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// Steady segments. Most steps of a long request repeat the step before
// them: the same requests run, decodes produce one token each, a long
// prompt advances by the same chunk, nothing completes, nothing can be
// admitted and nothing arrives. Stepping through them one by one makes
// the cost grow with the output length (16 Mi tokens is a valid spec); a
// steady segment of m such steps is applied at once instead, its duration
// integrated from the step model at a few points of the segment. Every
// event (an arrival, an admission, a completion, a preemption, the end of
// a prompt) still gets a step of its own, so the cost grows with the
// events, not with the tokens.

// exactSteps is the segment length up to which every step's duration is
// evaluated; longer segments are integrated (Simpson's rule, refined until
// two estimates agree to simpsonTol).
const (
	exactSteps = 4
	simpsonTol = 1e-4
	maxRefine  = 12
)

// coalesce is off in tests that compare the two ways.
var coalesce = true

// steadyLen returns how many steps, starting with the one just scheduled,
// repeat it exactly (1 when the next step differs). It leaves the per-step
// growth of the loads in s.deltas for advanceSteady.
func (s *simulator) steadyLen() int {
	if !coalesce || s.lagged || s.reserveHeld() {
		return 1 // a request left for the next step changes it
	}
	m := math.MaxInt
	width := s.cfg.Spec.width()
	for i := range s.ranks {
		rk := &s.ranks[i]
		for j := range rk.running {
			r := &rk.running[j]
			switch {
			case r.done >= r.prompt && r.sched == 0:
				return 1 // a decode waiting for KV: the next step preempts
			case r.sched == 0:
				// a partial prefill without budget: stays so while the rest repeats
			case r.done >= r.prompt:
				// each step emits at most the verify width (1 without drafts;
				// no division then, this loop runs every step)
				left := r.output - r.out - 1
				if width > 1 {
					left /= width
				}
				m = min(m, left)
			default:
				m = min(m, (r.prompt-r.done-1)/r.sched)
			}
			if m <= 1 {
				return 1 // the answer whatever the other requests say
			}
		}
	}
	if m == math.MaxInt {
		return 1
	}
	m = min(m, s.stepsToPoll())
	m = s.kvFit(m)
	s.stepDeltas()
	s.prefix = s.prefix[:0]
	if m > 1 {
		m = s.beforeArrival(m)
	}
	return max(1, m)
}

// kvFit is the largest m' ≤ m for which every rank's cache holds its
// running requests after m' steps (so no step of the segment preempts).
func (s *simulator) kvFit(m int) int {
	fits := func(k int) bool {
		for i := range s.ranks {
			rk := &s.ranks[i]
			s.seqWork += int64(len(rk.running))
			used := rk.kvUsed
			for j := range rk.running {
				r := &rk.running[j]
				if r.sched > 0 {
					used += s.moreBlocks(r, r.done+r.genCtx()+r.sched*k)
				}
			}
			if used > s.kv.capacity {
				return false
			}
		}
		return true
	}
	// The blocks needed only grow with k, so when the whole segment fits
	// every shorter one does and the search would return m: one pass
	// instead of its log₂ m. The work budget still counts the passes the
	// search makes (all over every rank, as none fails), so budgets, and
	// the runs they cut, are as they were.
	work := s.seqWork
	if fits(m) {
		passes := int64(0)
		sort.Search(m, func(int) bool { passes++; return false })
		s.seqWork = work + passes*s.running()
		return m
	}
	s.seqWork = work
	return sort.Search(m, func(k int) bool { return !fits(k + 1) })
}

// running is the number of running requests over all ranks.
func (s *simulator) running() int64 {
	var n int64
	for i := range s.ranks {
		n += int64(len(s.ranks[i].running))
	}
	return n
}

// beforeArrival is the largest m' ≤ m whose last step starts before the
// next arrival, which must find the step it arrives in.
func (s *simulator) beforeArrival(m int) int {
	next := s.nextArr
	if len(s.pending) > 0 {
		next = math.Min(next, s.pending[0].arrival)
	}
	next = math.Min(next, s.nextReady()) // a front end hands a request over
	left := next - s.now
	if math.IsInf(next, 1) {
		return m
	}
	reaches := s.reaches(left)
	if !reaches(m - 1) {
		return m
	}
	return sort.Search(m, reaches)
}

// reaches is segmentTime(k) ≥ left, mostly without integrating: a step
// only grows over a segment (contexts and prefixes grow, the token counts
// stay), so the first k steps take between k × stepAt(−½) and
// k × stepAt(k−½) — both for the exact sums and for Simpson's estimates,
// weighted means of the step inside the interval — and only a k whose
// bracket straddles left needs segmentTime. The answers, and so the
// segment, are those of segmentTime.
func (s *simulator) reaches(left float64) func(k int) bool {
	first := math.NaN()
	return func(k int) bool {
		if k <= 0 {
			return 0 >= left
		}
		if math.IsNaN(first) {
			first = s.stepAt(-0.5)
		}
		n := float64(k)
		switch {
		case n*first >= left:
			return true
		case n*s.stepAt(n-0.5) < left:
			return false
		}
		return s.segmentTime(k) >= left
	}
}

// segmentTime is the duration of the first k steps of the segment: the
// sum of the first exactSteps step durations (kept, since the searches
// ask for several k), integrated beyond.
func (s *simulator) segmentTime(k int) float64 {
	if k <= 0 {
		return 0
	}
	if k <= exactSteps {
		for j := len(s.prefix); j < k; j++ {
			prev := 0.0
			if j > 0 {
				prev = s.prefix[j-1]
			}
			s.prefix = append(s.prefix, prev+s.stepAt(float64(j)))
		}
		return s.prefix[k-1]
	}
	// Σ_{j<k} f(j) ≈ ∫ f over [-½, k-½] for the smooth f the loads give.
	return simpson(s.stepAt, -0.5, float64(k)-0.5, maxRefine)
}

// simpson integrates f over [a, b], halving the interval until Simpson's
// and the trapezoid estimates agree.
func simpson(f func(float64) float64, a, b float64, depth int) float64 {
	mid := (a + b) / 2
	fa, fm, fb := f(a), f(mid), f(b)
	whole := (b - a) / 6 * (fa + 4*fm + fb)
	trap := (b - a) / 4 * (fa + 2*fm + fb)
	if depth <= 0 || math.Abs(whole-trap) <= simpsonTol*math.Abs(whole) {
		return whole
	}
	return simpson(f, a, mid, depth-1) + simpson(f, mid, b, depth-1)
}

// stepAt is the duration of step j of the segment: every decode's context
// has grown by j tokens and every prefill chunk's prefix by j chunks.
func (s *simulator) stepAt(j float64) float64 {
	if s.scratch == nil {
		s.scratch = make([]perf.RankLoad, len(s.loads))
	}
	for i := range s.ranks {
		l := s.loads[i]
		d := s.deltas[i]
		l.DecodeCtx += j * d.DecodeCtx
		l.PrefillPairs += j * d.PrefillPairs
		l.PrefillPrefix += j * d.PrefillPrefix
		s.scratch[i] = l
	}
	return s.cfg.Step(s.scratch)
}

// stepDeltas records, per rank, how the scheduled load grows per step.
func (s *simulator) stepDeltas() {
	if len(s.deltas) != len(s.ranks) {
		s.deltas = make([]perf.RankLoad, len(s.ranks))
	}
	for i := range s.ranks {
		var d perf.RankLoad
		for j := range s.ranks[i].running {
			r := &s.ranks[i].running[j]
			switch {
			case r.sched == 0:
			case r.done >= r.prompt:
				d.DecodeCtx += s.emitMean // tokens a verify step emits on average
			default:
				c := float64(r.sched)
				d.PrefillPairs += c * c
				d.PrefillPrefix += c
			}
		}
		s.deltas[i] = d
	}
}

// advanceSteady applies m steady steps at once (m ≥ 2): time, queue
// areas, every running request's progress and KV blocks, output tokens.
func (s *simulator) advanceSteady(m int) {
	if s.cfg.RecvInterval > 1 { // the segment's later steps' schedules (pollRequests)
		s.recvCount += m - 1
		s.lastPrefill = s.loadsPrefill()
	}
	dt := s.segmentTime(m)
	s.deliverSegment(m, dt)
	s.accountSegment(dt, m)
	s.trace(s.loads, m, dt)
	if s.cfg.ScheduleAhead || (s.cfg.DPWave && s.cfg.WaveRunAhead > 0) { // when the segment's last step began (an extra step evaluation)
		last := s.stepAt(float64(m - 1))
		s.stepStart = s.now + dt - last
		// The one before: a steady segment's steps differ only by their
		// contexts' growth, so the last step's length stands for it.
		s.prevStart = s.stepStart - last
	}
	s.now += dt
	s.stepEnd = s.now
	s.stepN += m
	for i := range s.ranks {
		rk := &s.ranks[i]
		s.seqWork += int64(len(rk.running))
		for j := range rk.running {
			r := &rk.running[j]
			n := r.sched
			if n == 0 {
				continue
			}
			r.sched = 0
			if r.done < r.prompt {
				r.done += n * m
				r.chunks += int32(m)
				r.rideDecodes += int32(m) * int32(s.loads[i].DecodeSeqs)
			} else {
				k := s.emittedOver(m)
				r.ctxExtra += k
				r.out += k
				if s.done >= s.cfg.Warmup {
					s.outTok += k
				}
			}
			held := r.done + r.genCtx()
			if r.done >= r.prompt { // a decode holds slots for its next verify width
				held += s.cfg.Spec.width() - 1
			}
			if need := s.moreBlocks(r, held); need > 0 {
				s.hold(rk, r, need, held)
			}
		}
	}
}

// deliverSegment is deliveryTime over a steady segment of m steps lasting
// dt: every step's decodes hand the front end TokenS of work per token,
// which it does in order once the step has ended. It is behind the engine
// when that work outlasts the steps, else it delivers each step's tokens
// TokenS × n after the step (with near-equal steps, the extremes of the
// segment bound the recurrence feFree_k = max(feFree_k−1, t_k) + n·TokenS).
// Requests arriving during the segment arrive in its last step
// (beforeArrival): the front end ingests them after the outputs of the
// steps before it and ahead of that step's own (ingestArrivals).
func (s *simulator) deliverSegment(m int, dt float64) {
	fe := s.cfg.Frontend
	if !fe.active() {
		s.lastOut = s.now + dt
		return
	}
	end := s.now + dt
	first := s.now + s.segmentTime(1)
	// each front end's tokens a step: the whole step's, or with
	// Frontend.PerRank its rank's alone
	s.feWork = append(s.feWork[:0], make([]float64, s.frontCount())...)
	work := s.feWork
	any := false
	for i := range s.ranks {
		g := 0
		if s.fronts != nil {
			g = i
		}
		for j := range s.ranks[i].running {
			if r := &s.ranks[i].running[j]; r.sched > 0 && r.done >= r.prompt {
				work[g] += fe.TokenS
				any = true
			}
		}
	}
	if !any {
		s.ingestArrivals(end)
		return
	}
	if !s.arrivesBy(end) {
		for g, w := range work {
			if w > 0 {
				s.useFront(g)
				s.feFree = max(s.feFree+float64(m)*w, first+float64(m)*w, end+w)
				s.lastOut = s.feFree
			}
		}
		return
	}
	lastStart := end - s.stepAt(float64(m-1)) // when the first m−1 steps have ended (m ≥ 2)
	for g, w := range work {
		if w > 0 {
			s.useFront(g)
			s.feFree = max(s.feFree+float64(m-1)*w, first+float64(m-1)*w, lastStart+w)
		}
	}
	s.ingestArrivals(end)
	for g, w := range work {
		if w > 0 {
			s.useFront(g)
			s.lastOut = max(s.feFree-s.parseAhead(end), end) + w // as deliveryTime
			s.feFree = max(s.feFree, end) + w
		}
	}
}

// arrivesBy reports a request (closed-loop pending or open-loop) arriving
// by t.
func (s *simulator) arrivesBy(t float64) bool {
	return s.nextArr <= t || (len(s.pending) > 0 && s.pending[0].arrival <= t)
}

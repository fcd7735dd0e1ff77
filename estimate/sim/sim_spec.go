package sim

import "math"

// Speculation is speculative decoding in the simulation: a decoding
// sequence takes Drafts + 1 positions of the step's token budget and KV
// slots, and emits 1 + the number of leading drafts the target accepts,
// each accepted with probability Accept given the one before it was (the
// chain model whose mean is the acceptance length, resolve.
// PerPositionAcceptance). The zero value is no speculative decoding.
type Speculation struct {
	Drafts int
	Accept float64
}

// width is the positions one decoding sequence takes in a step.
func (sp Speculation) width() int { return 1 + max(sp.Drafts, 0) }

// emitted draws the tokens one verify step emits for a sequence: the
// bonus token plus the accepted prefix of the drafts. Without speculative
// decoding it draws nothing, so the run is the same as before for a seed.
func (s *simulator) emitted() int {
	sp := &s.cfg.Spec
	k := 1
	for k <= sp.Drafts && s.uniform() < sp.Accept {
		k++
	}
	// Each draw counts as a sequence update in the work budget: a steady
	// segment draws for every step of every sequence, and a plan of MTP
	// layouts spent 19 s here while its runs' budgets saw a fraction of it.
	s.seqWork += int64(min(k, sp.Drafts))
	return k
}

// uniform is s.rng.Float64(): the next draw of the same stream, by
// math/rand/v2's own formula (Rand.Float64) on the PCG source called
// directly — emitted draws once per sequence and verify step, and the
// call through the rand.Source interface cost a tenth of a speculative
// plan's time.
func (s *simulator) uniform() float64 {
	return float64(s.pcg.Uint64()<<11>>11) / (1 << 53)
}

// emitDecode applies a verify step to a decoding request: up to emitted()
// tokens, never past the request's output length.
func (s *simulator) emitDecode(r *simReq, t float64) {
	if s.cfg.Spec.Drafts <= 0 { // emitted() is 1 then, and draws nothing
		if r.out < r.output {
			r.ctxExtra++
			s.emit(r, t)
		}
		return
	}
	for k := s.emitted(); k > 0 && r.out < r.output; k-- {
		r.ctxExtra++
		s.emit(r, t)
	}
}

// emittedMoments are the mean and variance of emitted(). The mean, the
// expected tokens one verify step emits, is Σ_{i=0}^{N} p^i for N drafts
// accepted with chance p each given the one before (1 without speculative
// decoding).
func (sp Speculation) emittedMoments() (mean, variance float64) {
	n := max(sp.Drafts, 0)
	pk := 1.0 // P(K ≥ k)
	var m2 float64
	for k := 1; k <= n+1; k++ {
		pk1 := pk * sp.Accept // P(K ≥ k+1)
		if k == n+1 {
			pk1 = 0
		}
		prob := pk - pk1 // P(K = k)
		mean += float64(k) * prob
		m2 += float64(k*k) * prob
		pk = pk1
	}
	return mean, max(0, m2-mean*mean)
}

// emittedOver is the tokens a decoding request emits over m verify steps
// of a steady segment: m draws, or for long segments the normal
// approximation of their sum (one draw instead of m), within [m, m·width].
func (s *simulator) emittedOver(m int) int {
	sp := s.cfg.Spec
	if sp.Drafts <= 0 {
		return m
	}
	if m <= exactSteps*16 {
		k := 0
		for range m {
			k += s.emitted()
		}
		return k
	}
	mean, variance := s.emitMean, s.emitVar
	k := int(math.Round(float64(m)*mean + s.rng.NormFloat64()*math.Sqrt(float64(m)*variance)))
	return min(max(k, m), m*sp.width())
}

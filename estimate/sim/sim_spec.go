package sim

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
	sp := s.cfg.Spec
	k := 1
	for k <= sp.Drafts && s.rng.Float64() < sp.Accept {
		k++
	}
	return k
}

// emitDecode applies a verify step to a decoding request: up to emitted()
// tokens, never past the request's output length.
func (s *simulator) emitDecode(r *simReq) {
	for k := s.emitted(); k > 0 && r.out < s.cfg.OutputTokens; k-- {
		r.ctxExtra++
		s.emit(r)
	}
}

package sim

import "github.com/vlaunch/vlaunch/estimate/perf"

// StepTrace, when a Config sets it (analysis only), sees every step the
// simulation applies, in order: the loads scheduled for it, how many
// identical steps it stands for (a steady segment's m, else 1) and their
// total duration. Unlike a wrapper around Config.Step, which also sees the
// evaluations a steady segment integrates and the searches that size it,
// the trace counts each applied step once, so a decoding request's waits
// can be read from it (a decode's inter-token gap is the step it rode).
type StepTrace func(loads []perf.RankLoad, steps int, s float64)

// trace reports the applied step(s) to cfg.Trace when set.
func (s *simulator) trace(loads []perf.RankLoad, steps int, dt float64) {
	if s.cfg.Trace != nil {
		s.cfg.Trace(loads, steps, dt)
	}
}

package sim

// rampOver says whether a closed loop has left its staggered start: every
// session's first request has arrived (Config.StaggerS) and every request
// still in the deployment — in an API server, queued or running on a rank
// — arrived after that. Until then the loop is still filling: its first
// sessions ran in small, fast batches, so a request finishing now rode
// steps shorter than the full loop's, and a window opened now counts the
// sessions not yet arrived as not running. Measured from there, the
// per-request TPOT (its own steps) and the window's time averages (tokens
// per second, sequences running) described two different loads: the
// P/D decode run of examples/deepseek-v3-pd-32xh20.yaml at 1,024 sessions
// had its warm-up cut by its work share 736 s into a 954 s stagger, with
// 245 sessions still to arrive, and measured a 0.671 s TPOT against a
// 0.912 s mean step (981 running, 1,072 tokens/s): Little's law −29.6%.
// Open loops and finite runs (Pool), which have no such start, and a loop
// started all at once are always past it.
func (s *simulator) rampOver() bool {
	if s.cfg.Sessions <= 0 || s.cfg.Pool > 0 || s.cfg.StaggerS <= 0 {
		return true
	}
	if s.now < s.cfg.StaggerS {
		return false
	}
	after := func(q []simReq) bool {
		for i := range q {
			if q[i].arrival < s.cfg.StaggerS {
				return false
			}
		}
		return true
	}
	for i := range s.ranks {
		if !after(s.ranks[i].running) || !after(s.ranks[i].waiting) {
			return false
		}
	}
	if !after(s.ingest) {
		return false
	}
	for i := range s.fronts {
		if !after(s.fronts[i].ingest) {
			return false
		}
	}
	return true
}

package sim

import (
	"math"
	"testing"
)

// TestScheduleAhead: under async scheduling a request handed over while
// other requests step misses the step already scheduled and starts one
// step later — with a constant step, the mean TTFT of a closed loop whose
// sessions always find others decoding grows by about one step, all of it
// in the engine's queue — while a request that finds the engine with
// nothing to run starts at once, as without it. Steady segments agree with
// stepping.
func TestScheduleAhead(t *testing.T) {
	const step = 0.01
	busy := Config{Step: constStep(step), DP: 1, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 200, OutputTokens: 40,
		Sessions: 4, StaggerS: 0.2, Requests: 400, Warmup: 40, Seed: 3}
	sync := Run(busy)
	busy.ScheduleAhead = true
	ahead := Run(busy)
	if d := ahead.TTFT.Mean - sync.TTFT.Mean; d < 0.8*step || d > 1.05*step {
		t.Errorf("4 sessions: mean TTFT %.4f → %.4f s (+%.4f); want about one %.3f s step more", sync.TTFT.Mean, ahead.TTFT.Mean, d, step)
	}
	if d := ahead.TTFTParts.QueueS - sync.TTFTParts.QueueS; d < 0.8*step {
		t.Errorf("4 sessions: queue %.4f → %.4f s; want the lag in the engine's queue", sync.TTFTParts.QueueS, ahead.TTFTParts.QueueS)
	}
	if p := ahead.TTFTParts; math.Abs(p.FrontendS+p.QueueS+p.PrefillS-ahead.TTFT.Mean) > 1e-9 {
		t.Errorf("parts %+v do not add up to the mean TTFT %.6f", p, ahead.TTFT.Mean)
	}
	open := Config{Step: constStep(step), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 4096, InputTokens: 200, OutputTokens: 300,
		ArrivalRatePerS: 4, Requests: 300, Warmup: 30, Seed: 5, ScheduleAhead: true}
	coalesced := Run(open)
	coalesce = false
	stepped := Run(open)
	coalesce = true
	if math.Abs(stepped.TTFT.Mean/coalesced.TTFT.Mean-1) > 1e-6 || stepped.Requests != coalesced.Requests {
		t.Errorf("steady segments: mean TTFT %.6f s stepped one by one, %.6f s coalesced", stepped.TTFT.Mean, coalesced.TTFT.Mean)
	}
	alone := Config{Step: constStep(step), DP: 1, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 200, OutputTokens: 40,
		Sessions: 1, Requests: 50, Warmup: 5, Seed: 3}
	a := Run(alone)
	alone.ScheduleAhead = true
	if b := Run(alone); b.TTFT.Mean != a.TTFT.Mean || b.Stalled {
		t.Errorf("one session: mean TTFT %.4f s with async scheduling, %.4f s without (stalled %v); an idle engine takes a request at once",
			b.TTFT.Mean, a.TTFT.Mean, b.Stalled)
	}
}

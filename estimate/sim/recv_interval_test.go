package sim

import (
	"math"
	"testing"
)

// TestPollRequests follows SGLang's SchedulerRecvSkipper (scheduler_recv_
// skipper.py; weights from environ.py: DECODE 1, None 1, any other
// forward mode 1,000) through a hand-run sequence with
// --scheduler-recv-interval 3: after three decode steps the third schedule
// polls; a step with prefill work makes the next schedule poll; with
// nothing running the loop spins, so the schedule polls at once.
func TestPollRequests(t *testing.T) {
	s := &simulator{cfg: Config{RecvInterval: 3}, ranks: []simRank{{running: []simReq{{}}}}}
	want := []struct {
		prefill bool
		poll    bool
	}{
		{false, false}, // counter 1
		{false, false}, // 2
		{false, true},  // 3 ≥ 3: poll, reset
		{false, false}, // 1
		{true, true},   // + 1000 after a prefill step: poll
		{false, false}, // 1
	}
	for i, w := range want {
		s.now = float64(i + 1)
		s.lastPrefill = w.prefill
		before := s.recvAt
		s.pollRequests()
		if polled := s.recvAt != before; polled != w.poll {
			t.Errorf("schedule %d (last step prefill %v): polled %v, want %v", i+1, w.prefill, polled, w.poll)
		}
	}
	s.ranks[0].running = nil
	s.now = 10
	s.pollRequests()
	if s.recvAt != 10 {
		t.Errorf("nothing running: last poll at %v, want at once (10)", s.recvAt)
	}
	off := &simulator{cfg: Config{RecvInterval: 1}, ranks: []simRank{{running: []simReq{{}}}}}
	off.now = 5
	off.pollRequests()
	if off.recvAt != 0 || off.stepsToPoll() != math.MaxInt {
		t.Errorf("interval 1 (SGLang's default, no skipper): recvAt %v, steps to poll %d; want the gate off", off.recvAt, off.stepsToPoll())
	}
}

// TestRecvInterval: under SGLang's prefill-first policy a closed loop's
// request handed over while others decode waits in the engine's queue for
// the next poll — up to interval − 1 further decode steps — so its mean
// queue time grows, by less than the interval's steps (here by one step:
// the staggered sessions settle into a rhythm where each arrival's
// prefill step resets the counter); one session finds nothing running and
// is polled at once (TTFT unchanged, up to the rounding of steady
// segments the poll cuts shorter); steady segments agree with stepping
// one by one.
func TestRecvInterval(t *testing.T) {
	const step, n = 0.01, 10
	busy := Config{Step: constStep(step), DP: 1, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 200, OutputTokens: 40,
		Sessions: 4, StaggerS: 0.2, Requests: 400, Warmup: 40, Seed: 3, Policy: PrefillFirst}
	base := Run(busy)
	busy.RecvInterval = n
	gated := Run(busy)
	if d := gated.TTFTParts.QueueS - base.TTFTParts.QueueS; d < 0.5*step || d > n*step {
		t.Errorf("4 sessions: queue %.4f → %.4f s (+%.4f); want at least half a step, less than %d", base.TTFTParts.QueueS, gated.TTFTParts.QueueS, d, n)
	}
	coalesce = false
	stepped := Run(busy)
	coalesce = true
	if math.Abs(stepped.TTFT.Mean/gated.TTFT.Mean-1) > 1e-6 || math.Abs(stepped.TPOT.Mean/gated.TPOT.Mean-1) > 1e-6 || stepped.Requests != gated.Requests {
		t.Errorf("steady segments: TTFT %.6f / TPOT %.6f s stepped one by one, %.6f / %.6f coalesced",
			stepped.TTFT.Mean, stepped.TPOT.Mean, gated.TTFT.Mean, gated.TPOT.Mean)
	}
	alone := Config{Step: constStep(step), DP: 1, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 200, OutputTokens: 40,
		Sessions: 1, Requests: 50, Warmup: 5, Seed: 3, Policy: PrefillFirst}
	a := Run(alone)
	alone.RecvInterval = n
	if b := Run(alone); math.Abs(b.TTFT.Mean/a.TTFT.Mean-1) > 1e-9 || b.Stalled {
		t.Errorf("one session: mean TTFT %.9f s gated, %.9f s not (stalled %v); an idle engine polls at once", b.TTFT.Mean, a.TTFT.Mean, b.Stalled)
	}
}

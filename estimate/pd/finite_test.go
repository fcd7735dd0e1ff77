package pd

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// finiteCase is gpt-oss-120b on H200 as one TP4 prefill and one TP4 decode
// instance, prompts of 5,000 tokens and answers of 250 (the calibration
// source's shape) under 32 sessions.
var finiteCase = pdCase{name: "finite", model: "gpt-oss-120b", gpu: "h200", gpn: 8, pre: poolCase{inst: 1, tp: 4}, dec: poolCase{inst: 1, tp: 4},
	in: 5000, out: 250, conc: 32, gbit: 400, nics: 8, latUs: 2, maxLen: 16000, version: "0.11.0"}

// burst sets the workload's finite run (workload.burst_requests).
func burst(n int) func(pre, dec *input.Input) {
	return func(pre, dec *input.Input) { pre.Workload.BurstRequests, dec.Workload.BurstRequests = n, n }
}

// A closed loop's finite run (workload.burst_requests: 32 sessions, 160
// requests, every session starting at t=0) against the same loop's steady
// state: the first round's 32 prompts queue behind each other in the
// prefill pool, so the mean TTFT is higher, and the last of them waits
// for nearly all 32 (its p99 at least three quarters of the time the pool
// takes to prefill the round at its capacity; 2.13 against 2.14 s when
// written); the parts still add up to the mean;
// the request rate is the clients' (the run's requests over its length),
// which cannot exceed what the sessions sustain (Little's law: sessions /
// (TTFT + the decoding), within 2%), and the scenario says it is a
// finite run.
func TestFiniteRunStaircase(t *testing.T) {
	steady := evaluate(t, finiteCase, nil)
	pre, dec := finiteCase.inputs(t)
	burst(160)(&pre, &dec)
	r, _ := Evaluate(&pre, &dec, false, "", slo.Options{Seed: 1})
	f := *r.Scenario(finiteCase.in)
	if f.Burst != 160 || f.Sessions != 32 || f.Unbounded || steady.Burst != 0 {
		t.Fatalf("finite run: burst %d, sessions %d, unbounded %t; steady burst %d", f.Burst, f.Sessions, f.Unbounded, steady.Burst)
	}
	if f.TTFT.Mean <= steady.TTFT.Mean || f.TTFTParts.PrefillQueueS <= steady.TTFTParts.PrefillQueueS {
		t.Errorf("finite run: TTFT mean %.3f s (prefill queue %.3f), not above the steady loop's %.3f (%.3f)",
			f.TTFT.Mean, f.TTFTParts.PrefillQueueS, steady.TTFT.Mean, steady.TTFTParts.PrefillQueueS)
	}
	round := 32 / r.Prefill.CapacityPerS
	if f.TTFT.P99 < 0.75*round {
		t.Errorf("finite run: TTFT p99 %.3f s, not near the first round's staircase (32 prompts at %.2f/s: %.3f s)", f.TTFT.P99, r.Prefill.CapacityPerS, round)
	}
	if sum := f.TTFTParts.Sum(); math.Abs(sum-f.TTFT.Mean) > 1e-9*f.TTFT.Mean {
		t.Errorf("finite run: TTFT parts add up to %.6f s, the mean is %.6f", sum, f.TTFT.Mean)
	}
	cycle := f.TTFT.Mean + float64(f.OutputTokens-1)*f.TPOT.Mean
	if most := 32 / cycle; f.RequestsPerS > 1.02*most {
		t.Errorf("finite run: %.2f requests/s, above what 32 sessions of %.2f s cycles sustain (%.2f)", f.RequestsPerS, cycle, most)
	}
	var said bool
	for _, n := range r.Notes {
		said = said || strings.HasPrefix(n, "finite run (burst_requests 160, at most 32 in flight)")
	}
	if !said {
		t.Errorf("no note on the finite run: %q", r.Notes)
	}
}

// A burst of requests all sent at t=0 (burst_requests without concurrency:
// one request per session) is one round of the staircase: the mean prefill
// queue is at least a third of the time the pool takes to prefill all of
// them (the k-th of n waits k/n of it, less what a step's batching and the
// idle start save), and a burst at a rate above every capacity is never
// unbounded (its queue drains) where the steady open loop is.
func TestFiniteBurst(t *testing.T) {
	c := finiteCase
	c.conc = 0
	pre, dec := c.inputs(t)
	pre.Workload.Concurrency, dec.Workload.Concurrency = 0, 0
	burst(48)(&pre, &dec)
	r, _ := Evaluate(&pre, &dec, false, "", slo.Options{Seed: 1})
	s := r.Scenario(c.in)
	if s.Sessions != 48 || s.Burst != 48 {
		t.Fatalf("burst of 48: sessions %d, burst %d", s.Sessions, s.Burst)
	}
	if all := 48 / r.Prefill.CapacityPerS; s.TTFTParts.PrefillQueueS < all/3 {
		t.Errorf("burst of 48: mean prefill queue %.3f s, below a third of the %.3f s the pool takes for all of them", s.TTFTParts.PrefillQueueS, all)
	}
	over := c
	over.conc, over.rate = 0, 50 // far above the pool's few prompts a second
	if st := evaluate(t, over, nil); !st.Unbounded {
		t.Fatalf("steady open loop at 50/s: not unbounded (%.2f requests/s)", st.RequestsPerS)
	}
	fb := evaluate(t, over, burst(200))
	if fb.Unbounded || fb.Burst != 200 || fb.TTFT.Mean <= 0 || fb.RequestsPerS <= 0 {
		t.Errorf("burst of 200 at 50/s: unbounded %t, burst %d, TTFT %.3f s, %.2f requests/s", fb.Unbounded, fb.Burst, fb.TTFT.Mean, fb.RequestsPerS)
	}
}

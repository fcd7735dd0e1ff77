package pd

import (
	"reflect"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// arrivalCase is an open loop on a one-instance prefill pool (Llama-3.1-8B,
// TP 1 on a B200; two decode instances), its rate set to util of the
// prefill pool's capacity at 4,096-token prompts.
func arrivalCase(t *testing.T, util float64) pdCase {
	t.Helper()
	c := pdCase{name: "arrivals", model: "llama-3.1-8b", gpu: "b200", gpn: 8, pre: poolCase{inst: 1, tp: 1}, dec: poolCase{inst: 2, tp: 1},
		in: 4096, out: 128, rate: 1, gbit: 400, nics: 8, latUs: 2, maxLen: 16384, version: "0.11.0"}
	pre, dec := c.inputs(t)
	r, _ := Evaluate(&pre, &dec, false, "", slo.Options{Seed: 1})
	if r.Prefill.CapacityPerS <= 0 {
		t.Fatalf("no prefill capacity: %+v", r.Prefill)
	}
	c.rate = util * r.Prefill.CapacityPerS
	return c
}

// withBurstiness evaluates c with workload.arrival_burstiness b on both
// pools' inputs (as resolve gives them: one workload), and finite > 0
// makes it a finite run of that many requests.
func withBurstiness(t *testing.T, c pdCase, b float64, finite int) Report {
	t.Helper()
	pre, dec := c.inputs(t)
	for _, in := range []*input.Input{&pre, &dec} {
		in.Workload.ArrivalBurstiness = b
		in.Workload.BurstRequests = finite
	}
	r, _ := Evaluate(&pre, &dec, false, "", slo.Options{Seed: 1})
	if len(r.Scenarios) == 0 {
		t.Fatalf("B=%g: no scenario", b)
	}
	return r
}

// B = 1 written out is the Poisson run, bit for bit, steady or finite
// (sim.Config.Burstiness 1 draws exactly as 0: sim's
// TestBurstinessOneIsPoisson).
func TestBurstinessOneIsPoissonPD(t *testing.T) {
	c := arrivalCase(t, 0.7)
	for _, finite := range []int{0, 300} {
		// (the pools' inputs differ by the field itself: the figures
		// and the notes are compared)
		a, b := withBurstiness(t, c, 0, finite), withBurstiness(t, c, 1, finite)
		if !reflect.DeepEqual(a.Scenarios, b.Scenarios) || !reflect.DeepEqual(a.Notes, b.Notes) {
			t.Errorf("finite %d: burstiness 1 changed the report:\n%+v\n%+v", finite, a.Scenarios[0], b.Scenarios[0])
		}
		if c := withBurstiness(t, c, 100, finite); reflect.DeepEqual(a.Scenarios, c.Scenarios) {
			t.Errorf("finite %d: burstiness 100 changed nothing", finite)
		}
	}
}

// The prefill pool's queue follows the client's arrivals: at the same
// rate (70% of the prefill pool's capacity), smoother gaps queue less and
// burstier ones more. Kingman's G/G/1 wait is ρ/(1−ρ) · (ca² + cs²)/2 · S
// with ca² = 1/B; every prompt here has one length, so one prefill (one
// step of ≤ max_num_batched_tokens, or its chunks) is close to a fixed
// service time (cs² ≈ 0) and the factor is 1/(2B): 1/200 of Poisson's
// 1/2 at B = 100, twice it at B = 0.5. The pool batches waiting prompts
// into a step, which makes service grow with the queue, so the bounds
// are looser than the factor: B = 100 at most a quarter of the Poisson
// wait, B = 0.5 at least 1.3 times it. The decode pool keeps its Poisson
// stream (load's comment): its figures do not move.
func TestSmootherArrivalsQueueLessPD(t *testing.T) {
	c := arrivalCase(t, 0.7)
	q := map[float64]float64{}
	var poisson Scenario
	for _, b := range []float64{1, 0.5, 100} { // Poisson first: the others are compared with it
		s := withBurstiness(t, c, b, 0).Scenarios[0]
		if s.Unbounded {
			t.Fatalf("B=%g: unbounded at %.2f requests/s", b, c.rate)
		}
		q[b] = s.TTFTParts.PrefillQueueS
		t.Logf("B=%g: prefill queue %.2f ms, prefill %.2f ms, TTFT %.1f ms, TPOT %.2f ms", b, 1e3*q[b], 1e3*s.TTFTParts.PrefillS, 1e3*s.TTFT.Mean, 1e3*s.TPOT.Mean)
		if b == 1 {
			poisson = s
		} else if s.TPOT != poisson.TPOT {
			t.Errorf("B=%g: TPOT %+v, Poisson's %+v: the decode pool's arrivals should not move", b, s.TPOT, poisson.TPOT)
		}
	}
	if !(q[100] < 0.25*q[1] && q[0.5] > 1.3*q[1]) {
		t.Errorf("prefill queue %.2f / %.2f / %.2f ms at B = 0.5 / 1 / 100: want B=100 below a quarter of Poisson's, B=0.5 above 1.3 times it",
			1e3*q[0.5], 1e3*q[1], 1e3*q[100])
	}
}

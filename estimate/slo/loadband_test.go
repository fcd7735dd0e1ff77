package slo

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestLoadBandHand: the TTFT band an open loop's capacity band implies,
// derived by hand. A prediction of 1 s of which 0.2 s is the idle prompt
// (queueing part 0.8 s), capacity band ×0.8–×1.2, W(x) = x/(1−x):
//
//	u = 0.5:  W = 1;    u/0.8 = 0.625, W = 1.6667 → high 0.2 + 0.8 × 1.6667 = 1.5333;
//	          u/1.2 = 0.41667, W = 0.71429 → low 0.2 + 0.8 × 0.71429 = 0.77143.
//	u = 0.7:  W = 2.3333; u/0.8 = 0.875, W = 7 (×3) → high 0.2 + 2.4 = 2.6;
//	          u/1.2 = 0.58333, W = 1.4 (×0.6) → low 0.2 + 0.48 = 0.68.
//	u = 0.9:  u/0.8 = 1.125 ≥ 1 → high open; u/1.2 = 0.75, W = 3 over W(0.9) = 9
//	          → low 0.2 + 0.8/3 = 0.46667.
//	u = 0.97: u/0.8 = 1.2125 → open; u/1.2 = 0.80833, W = 4.2174 over
//	          W(0.97) = 32.333 (×0.13043) → low 0.2 + 0.10435 = 0.30435.
func TestLoadBandHand(t *testing.T) {
	capBand := band.Band{Low: 0.8, High: 1.2}
	for _, c := range []struct {
		u, low, high float64
	}{
		{0.5, 0.77143, 1.5333},
		{0.7, 0.68, 2.6},
		{0.9, 0.46667, math.Inf(1)},
		{0.97, 0.30435, math.Inf(1)},
	} {
		w := loadBand(1, 0.2, c.u, capBand)
		if math.Abs(w.Low-c.low) > 1e-4 || (math.IsInf(c.high, 1) != w.OpenHigh) || (!w.OpenHigh && math.Abs(w.High-c.high) > 1e-4) {
			t.Errorf("u=%g: band %.5f–%.5f (open %v), want %.5f–%.5f", c.u, w.Low, w.High, w.OpenHigh, c.low, c.high)
		}
		if math.Abs(w.QueueS-0.8) > 1e-12 {
			t.Errorf("u=%g: queueing part %g, want 0.8", c.u, w.QueueS)
		}
	}
	// A capacity band with no lower bound: any utilisation could be 1 or more.
	if w := loadBand(1, 0.2, 0.3, band.Band{Low: 0.05, High: 1.2, OpenLow: true}); !w.OpenHigh {
		t.Errorf("open capacity band: %+v, want the high side open", w)
	}
	// No queueing part (the prediction is the idle prompt): nothing to grow.
	if w := loadBand(1, 1, 0.7, capBand); w.Low != 1 || w.High != 1 {
		t.Errorf("no queue: %+v, want 1–1", w)
	}
}

// TestWidenForLoadVerdicts: the same prediction (1 s, idle 0.2 s) with an
// empirical band of ×0.9–×1.1 under capacity band ×0.8–×1.2 (the bands of
// TestLoadBandHand): a closed loop keeps the empirical band and its
// verdict; at u = 0.5 the band is the wider 0.77143–1.5333 on each side, so
// a 1.3 s target that passed is uncertain and 2 s still passes; at u = 0.9
// and 0.97 the high side is open, so 2 s is uncertain (with the reason),
// and a target below the band's low edge (0.4 s, 0.3 s) still fails.
func TestWidenForLoadVerdicts(t *testing.T) {
	capBand := band.Band{Low: 0.8, High: 1.2}
	for _, c := range []struct {
		u, target float64
		low, high float64
		verdict   string
	}{
		{0, 1.3, 0.9, 1.1, VerdictPass}, // closed loop: the zero Load
		{0.5, 1.3, 0.77143, 1.5333, VerdictUncertain},
		{0.5, 2, 0.77143, 1.5333, VerdictPass},
		{0.5, 0.7, 0.77143, 1.5333, VerdictFail},
		{0.9, 2, 0.46667, math.Inf(1), VerdictUncertain},
		{0.9, 0.4, 0.46667, math.Inf(1), VerdictFail},
		{0.97, 2, 0.30435, math.Inf(1), VerdictUncertain},
		{0.97, 0.3, 0.30435, math.Inf(1), VerdictFail},
	} {
		v := Verdict{Target: c.target, Predicted: 1, Band: &BandRange{Low: 0.9, High: 1.1}, BandBasis: "empirical"}
		rejudge(&v, false)
		if c.u > 0 {
			widenForLoad(&v, Load{Utilization: c.u, IdleS: 0.2, SustainableRatePerS: 10}, capBand, band.Dense)
		}
		if v.Verdict != c.verdict || math.Abs(v.Band.Low-c.low) > 1e-4 || (math.IsInf(c.high, 1) != math.IsInf(v.Band.High, 1)) ||
			(!math.IsInf(c.high, 1) && math.Abs(v.Band.High-c.high) > 1e-4) {
			t.Errorf("u=%g target %g: %s %.5f–%.5f, want %s %.5f–%.5f", c.u, c.target, v.Verdict, v.Band.Low, v.Band.High, c.verdict, c.low, c.high)
		}
		open := strings.Contains(v.BandBasis, "at the low edge of the capacity band (×0.80) the arrivals would exceed what the deployment sustains")
		if open != math.IsInf(c.high, 1) {
			t.Errorf("u=%g: basis %q", c.u, v.BandBasis)
		}
		if c.u == 0 && v.BandBasis != "empirical" {
			t.Errorf("closed loop: basis changed to %q", v.BandBasis)
		}
		if c.u == 0.5 && !strings.Contains(v.BandBasis, "Pollaczek–Khinchine") {
			t.Errorf("u=0.5: basis %q does not name the queue", v.BandBasis)
		}
	}
	// An empirical band wider than the load's keeps its sides: at u = 0.5
	// the load band 0.77–1.53 lies inside ×0.5–×2.
	v := Verdict{Target: 3, Predicted: 1, Band: &BandRange{Low: 0.5, High: 2}, BandBasis: "empirical"}
	widenForLoad(&v, Load{Utilization: 0.5, IdleS: 0.2}, capBand, band.Dense)
	if v.Band.Low != 0.5 || v.Band.High != 2 || v.Verdict != VerdictPass || v.BandBasis != "empirical" {
		t.Errorf("wide empirical band: %+v %q", *v.Band, v.BandBasis)
	}
}

// TestOpenLoadOnlyOpenLoops: the scenario's load reaches the band only for
// an open loop; a closed loop's sessions and a finite burst have a finite
// queue.
func TestOpenLoadOnlyOpenLoops(t *testing.T) {
	open := SimScenario{RatePerS: 4, Utilization: 0.93, SustainableRatePerS: 4.3}
	if l := openLoad(&open, 0.1); l.Utilization != 0.93 || l.IdleS != 0.1 {
		t.Errorf("open loop: %+v", l)
	}
	for _, s := range []SimScenario{{Sessions: 8}, {RatePerS: 4, Burst: 100, Utilization: 0.93}} {
		if l := openLoad(&s, 0.1); l != (Load{}) {
			t.Errorf("%+v: load %+v, want none", s, l)
		}
	}
}

// TestLoadBandHoldsSlowerSimulation: the band a verdict gets under an open
// loop holds what the model's own simulation says of a deployment Low× as
// fast. A deployment whose every step takes 1/Low as long sustains Low× the
// rate, and at arrival rate λ runs as the predicted one does at λ/Low with
// every time ×1/Low (the front end's time, tokenizing and the first token
// out, does not slow with the GPU: the scaled figure overstates it, erring
// against the band). loadBand grows only the queueing part (the idle part's
// own error is the TTFT band's), so the check is on the final band, the
// wider of the dense class's held-out TTFT band and the load's. Llama-3.1-8B
// on one H100, 1024 in / 256 out, at utilisation 0.3–0.6 with capacity
// edges Low = 0.65–0.9 (u/Low < 1). The log compares the queueing growth
// alone: ρ/(1−ρ) against the simulation at λ/Low, unscaled (continuous
// batching admits arrivals into the running batch, so below saturation the
// simulated TTFT grows more slowly than an M/G/1 queue's wait).
func TestLoadBandHoldsSlowerSimulation(t *testing.T) {
	in := sloInput(t, 1)
	sm := perf.NewStepModel(perf.SetupFromInput(&in))
	const kv = 400000
	idle := sm.PrefillIdle(1024, in.MaxNumBatchedTokens).TTFTS
	opt := Options{Seed: 1, Requests: 2000}
	in.Workload.ArrivalRatePerS = 1
	mu := simulateScenario(&in, sm, kv, 1024, opt).SustainableRatePerS
	if mu <= 0 {
		t.Fatal("no sustainable rate")
	}
	for _, c := range []struct{ u, low float64 }{{0.3, 0.65}, {0.5, 0.65}, {0.5, 0.8}, {0.6, 0.7}, {0.6, 0.9}} {
		in.Workload.ArrivalRatePerS = c.u * mu
		at := simulateScenario(&in, sm, kv, 1024, opt)
		in.Workload.ArrivalRatePerS = c.u * mu / c.low
		slow := simulateScenario(&in, sm, kv, 1024, opt)
		capBand := band.Band{Low: c.low, High: 1}
		for _, q := range []struct {
			name     string
			pred, sl float64
		}{{"p50", at.Result.TTFT.P50, slow.Result.TTFT.P50}, {"p99", at.Result.TTFT.P99, slow.Result.TTFT.P99}} {
			v := Verdict{Target: 10, Predicted: q.pred}
			judge(&v, &in, ttftRegime(q.name), false, true)
			widenForLoad(&v, Load{Utilization: at.Utilization, IdleS: idle}, capBand, band.Dense)
			w := loadBand(q.pred, idle, at.Utilization, capBand)
			scaled := q.sl / c.low
			t.Logf("u %.2f Low %.2f %s: predicted %.1f ms; queueing growth: M/G/1 %.1f ms, simulated at u/Low %.2f %.1f ms; band high %.1f ms, simulated ×1/Low %.1f ms",
				at.Utilization, c.low, q.name, q.pred*1e3, w.High*1e3, slow.Utilization, q.sl*1e3, v.Band.High*1e3, scaled*1e3)
			if math.IsInf(v.Band.High, 1) || v.Band.High < scaled {
				t.Errorf("u %.2f Low %.2f %s: band high %.4f s below the slower deployment's simulated %.4f s", at.Utilization, c.low, q.name, v.Band.High, scaled)
			}
		}
	}
}

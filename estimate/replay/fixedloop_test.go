package replay

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/published"
)

// waveStates runs TestFixedLoopStatesAnalysis (analysis, skipped by
// default): go test ./estimate/replay -run TestFixedLoopStatesAnalysis -wavestates -v
var waveStates = flag.Bool("wavestates", false, "print the fixed-length closed loops' states: all-at-once, train, wave (analysis)")

// rowByID is the targetable row id.
func rowByID(t *testing.T, id string) published.Row {
	t.Helper()
	for _, r := range targetableRows(t) {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no row %s", id)
	return published.Row{}
}

// withoutLoopStates runs f with sim.UseFixedLoopStates off (the all-at-once
// simulation alone).
func withoutLoopStates(f func()) {
	defer func(v bool) { sim.UseFixedLoopStates = v }(sim.UseFixedLoopStates)
	sim.UseFixedLoopStates = false
	f()
}

// waveFor is the wave state of a fixed-length closed loop row, derived here
// from its parts (sim.WaveOf on one engine's step model, the row's budget,
// the engine's share of the sessions), and the all-at-once simulation's
// mean TTFT and front end.
func waveFor(t *testing.T, r published.Row) (w sim.WaveState, simMean, fe float64) {
	t.Helper()
	var o Outcome
	var sm *perf.StepModel
	var e engine
	withoutLoopStates(func() {
		var err error
		if o, sm, e, err = runRow(r, perf.DefaultEfficiency, Options{Seed: 1}); err != nil {
			t.Fatal(err)
		}
	})
	n := r.Load.Concurrency.Int() / max(1, r.Layout.DP.Int())
	in, out := lengths(r.Workload)
	d, _ := sim.RankStep(sm).DecodeAt(n, float64(in)+float64(out)/2)
	f := o.Sim.TTFTParts.FrontendS
	w = sim.WaveOf(sim.RankStep(sm), n, in, e.batchTok, d.TPOTS, 0)
	return w, o.TTFT.Mean, f
}

// TestFixedLoopFollowsWaveModel: on the scicom closed loops of 10 whose
// published per-request start times show waves (docs/calibration-analysis.md),
// a fixed-length loop's predicted mean TTFT is the wave model's (plus the
// simulated front end) where the wave re-forms by the physics
// (sim.WaveState.Decided): one prefill step holds the engine's whole wave,
// so it finishes at once, or its sessions finish within the first new
// prompt's prefill, during which the engine schedules nothing new (five
// prefill steps of two 4,096-token prompts finish over ~18 ms at Qwen3-14B
// TP8 and ~43 ms at Llama-3.1-70B TP8, inside a 4,096-token prefill of 35
// and 144 ms; sim.UseQueueWindow). The wave model is within ±30% of the
// published mean on each of them. Where the sessions finish over longer
// than both the turnaround and that prefill (Qwen3-14B TP8 at 100
// sessions of 2,048 tokens: 25 steps over ~170 ms against a ~20 ms
// prefill), the point is the geometric mean of the wave and the
// all-at-once simulation.
func TestFixedLoopFollowsWaveModel(t *testing.T) {
	for _, c := range []struct {
		id             string
		decided, waved bool
	}{
		{"scicom-qwen3-14b-h100-vllm-tp4dp2-128x128-c10-20260410", true, true},
		{"scicom-qwen3-14b-h100-vllm-tp4dp2-1024x128-c10-20260410", true, true},
		{"scicom-llama31-70b-h100-vllm-tp8dp1-512x128-c10-20260413", true, true},
		{"scicom-qwen3-14b-h100-vllm-tp8dp1-4096x128-c10-20260410", true, true},
		{"scicom-llama31-70b-h100-vllm-tp8dp1-4096x128-c10-20260413", true, true},
		{"scicom-qwen3-14b-h100-vllm-tp8dp1-2048x128-c100-20260409", false, false},
	} {
		t.Run(c.id, func(t *testing.T) {
			r := rowByID(t, c.id)
			if !fixedLoop(r) {
				t.Fatal("not read as a fixed-length closed loop")
			}
			o, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			w, simMean, fe := waveFor(t, r)
			_, out := lengths(r.Workload)
			if !w.Clean(out) {
				t.Fatalf("no clean wave: %d steps for %d output tokens", w.Steps, out)
			}
			wave := w.MeanS + fe
			want := wave
			if !c.decided {
				want = math.Sqrt(wave * simMean)
			}
			if got := o.TTFT.Mean; math.Abs(got/want-1) > 1e-6 {
				t.Errorf("mean TTFT %.1f ms, want %.1f (wave %.1f, all-at-once %.1f, decided %v)", got*1e3, want*1e3, wave*1e3, simMean*1e3, c.decided)
			}
			if pub := r.Figures.TTFTMs.Mean.V / 1e3; c.waved && math.Abs(wave/pub-1) > 0.30 {
				t.Errorf("wave model %.1f ms against %.1f published: beyond ±30%%", wave*1e3, pub*1e3)
			}
		})
	}
}

// TestFixedLoopBandSpansStates: the band of a fixed-length closed loop's
// TTFT spans both states. Llama-3.1-70B TP4 × DP2 1024/128 at 10 sessions
// ran as a train (published 139 ms; the wave model 330): the target's
// states reach from the train's simulation to the wave, and the published
// figure lies inside the band over them although it lies outside the
// band around the point prediction alone.
func TestFixedLoopBandSpansStates(t *testing.T) {
	r := rowByID(t, "scicom-llama31-70b-h100-vllm-tp4dp2-1024x128-c10-20260413")
	ts, err := Reproduce(r, perf.DefaultEfficiency, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	train, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, train: true})
	if err != nil {
		t.Fatal(err)
	}
	w, simMean, fe := waveFor(t, r)
	var tg Target
	for _, x := range ts {
		if x.Regime == RegimeTTFTMean {
			tg = x
		}
	}
	if tg.StateLow <= 0 {
		t.Fatal("no states on the mean TTFT target")
	}
	lo := 1e3 * min(train.TTFT.Mean, simMean, w.MeanS+fe)
	hi := 1e3 * max(train.TTFT.Mean, simMean, w.MeanS+fe)
	if math.Abs(tg.StateLow/lo-1) > 1e-6 || math.Abs(tg.StateHigh/hi-1) > 1e-6 {
		t.Errorf("states %.1f–%.1f ms, want %.1f–%.1f (train %.1f, all-at-once %.1f, wave %.1f)", tg.StateLow, tg.StateHigh, lo, hi,
			train.TTFT.Mean*1e3, simMean*1e3, (w.MeanS+fe)*1e3)
	}
	if !(tg.StateHigh > 1.5*tg.StateLow) {
		t.Errorf("states %.1f–%.1f ms: the train and the wave should differ by well over 1.5×", tg.StateLow, tg.StateHigh)
	}
	b := band.For(band.Dense, band.TTFTMean)
	if !Inside(tg, b) {
		t.Errorf("published %.1f ms outside the band over the states %.1f–%.1f (×%.2f–×%.2f)", tg.Published, tg.StateLow, tg.StateHigh, b.Low, b.High)
	}
	point := tg
	point.StateLow, point.StateHigh = 0, 0
	if Inside(point, b) {
		t.Errorf("published %.1f ms inside the band around the point %.1f alone: the states add nothing here", tg.Published, tg.Predicted)
	}
	l, h := b.RangeOver(tg.StateLow, tg.StateHigh)
	if pl, ph := b.Range(tg.StateLow); l != pl || h < ph {
		t.Errorf("band over the states %.1f–%.1f does not hold the lower state's band %.1f–%.1f", l, h, pl, ph)
	}
}

// TestFixedLoopStatesAnalysis prints, for every fixed-length closed loop,
// the published mean TTFT and output throughput beside the all-at-once
// start (waves), the evenly staggered start (train), the wave model and
// the point prediction (analysis).
func TestFixedLoopStatesAnalysis(t *testing.T) {
	if !*waveStates {
		t.Skip("analysis: run with -wavestates")
	}
	var b strings.Builder
	b.WriteString("| row | split | n/engine | W | spread / turn (ms) | TTFT pub | all-at-once | train | wave | point | tok/s pub | all-at-once | train |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range targetableRows(t) {
		if !fixedLoop(r) || r.Load.Concurrency.Int() < 2 {
			continue
		}
		var w Outcome
		withoutLoopStates(func() { w, _, _, _ = runRow(r, perf.DefaultEfficiency, Options{Seed: 1}) })
		p, sm, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil || w.Sim == nil {
			continue
		}
		tr, _, _, _ := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, train: true})
		in, out := lengths(r.Workload)
		n := (r.Load.Concurrency.Int() + sm.S.DP - 1) / sm.S.DP
		d, _ := sim.RankStep(sm).DecodeAt(n, float64(in)+float64(out)/2)
		ws := sim.WaveOf(sim.RankStep(sm), n, in, e.batchTok, d.TPOTS, 0)
		fe := w.Sim.TTFTParts.FrontendS
		f := r.Figures
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |\n", r.ID, r.Split, n, ws.Steps, ws.SpreadS*1e3,
			f.TTFTMs.Mean.V, w.TTFT.Mean*1e3, tr.TTFT.Mean*1e3, (ws.MeanS+fe)*1e3, p.TTFT.Mean*1e3, f.OutputTokPerS.V, w.OutputTokPerS, tr.OutputTokPerS)
	}
	t.Logf("fixed-length closed loops:\n%s", b.String())
}

// TestFixedLoopThroughputFollowsWave: a fixed-length closed loop's
// predicted output throughput is its wave state's (sim.WaveCycleOf: the
// sessions' output tokens over the wave's cycle, the ingest the
// all-at-once run's mean front end) where the wave is decided, and the
// geometric mean of that and the all-at-once run's where it is not; its
// band's states span the wave, the train and the all-at-once run
// (sim.UseWaveCycle). Where one prefill step holds an engine's wave (the
// c10 loops) the all-at-once simulation stays a wave itself, and the
// priced cycle agrees with it within 5% on these two (up to 10% above it
// on others: the API server ingests the wave's prompts one after another,
// which the cycle does not price; docs/calibration-analysis.md); where the wave takes 13–25
// prefill steps (the c100 loops, published −15…−19% below the
// all-at-once run) its rate is at least 5% below the all-at-once run's steady
// one.
func TestFixedLoopThroughputFollowsWave(t *testing.T) {
	for _, c := range []struct {
		id             string
		decided, agree bool
	}{
		{"scicom-qwen3-14b-h100-vllm-tp4dp2-1024x128-c10-20260410", true, true},
		{"scicom-llama31-70b-h100-vllm-tp8dp1-512x128-c10-20260413", true, true},
		{"scicom-llama31-70b-h100-vllm-tp8dp1-2048x128-c100-20260409", false, false},
		{"scicom-qwen3-14b-h100-vllm-tp4dp2-1024x128-c100-20260409", false, false},
	} {
		t.Run(c.id, func(t *testing.T) {
			r := rowByID(t, c.id)
			var off Outcome
			var sm *perf.StepModel
			var e engine
			defer func(v bool) { sim.UseWaveCycle = v }(sim.UseWaveCycle)
			sim.UseWaveCycle = false
			off, sm, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			sim.UseWaveCycle = true
			on, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			in, out := lengths(r.Workload)
			n := (r.Load.Concurrency.Int() + sm.S.DP - 1) / sm.S.DP
			cy := sim.WaveCycleOf(sim.RankStep(sm), n, in, out, e.batchTok, e.policy, off.Sim.TTFTParts.FrontendS)
			wave := float64(r.Load.Concurrency.Int()*out) / cy.CycleS
			want := wave
			if !c.decided {
				want = math.Sqrt(wave * off.OutputTokPerS)
			}
			if math.Abs(on.OutputTokPerS/want-1) > 1e-6 {
				t.Errorf("output %.0f tok/s, want %.0f (wave %.0f, all-at-once %.0f, decided %v)", on.OutputTokPerS, want, wave, off.OutputTokPerS, c.decided)
			}
			if r := wave / off.OutputTokPerS; c.agree && math.Abs(r-1) > 0.05 || !c.agree && r > 0.95 {
				t.Errorf("wave %.0f tok/s against the all-at-once run's %.0f (agree %v)", wave, off.OutputTokPerS, c.agree)
			}
			if on.TPOT != off.TPOT {
				t.Errorf("TPOT moved (%.3f → %.3f ms) with sim.UseWaveCycleTPOT off", off.TPOT.Mean*1e3, on.TPOT.Mean*1e3)
			}
			ts, err := Reproduce(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range ts {
				if x.Regime != RegimeThroughput {
					continue
				}
				if lo, hi := x.StateLow/x.Predicted, x.StateHigh/x.Predicted; !(lo <= 1 && hi >= 1 && hi > lo) ||
					math.Abs(x.StateLow/min(wave, off.OutputTokPerS)-1) > 0.05 && x.StateLow > min(wave, off.OutputTokPerS) {
					t.Errorf("throughput states %.0f–%.0f around %.0f: want a span holding the wave %.0f and the all-at-once %.0f", x.StateLow, x.StateHigh, x.Predicted, wave, off.OutputTokPerS)
				}
			}
		})
	}
}

package slo

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/spec"
)

// ttftVerdictOf is the TTFT verdict of percentile q at n input tokens.
func ttftVerdictOf(t *testing.T, p Prediction, q string) Verdict {
	t.Helper()
	for _, v := range p.SLO {
		if strings.HasPrefix(v.Name, "TTFT "+q+" ") && v.Band != nil {
			return v
		}
	}
	t.Fatalf("no TTFT %s verdict with a band in %+v", q, p.SLO)
	return Verdict{}
}

// A finite closed loop of fixed lengths (vllm bench serve's
// --max-concurrency 8 --num-prompts 64, --ignore-eos) is judged on both of
// its states: the TTFT bands span the train (the staggered start) and the
// wave, and the prediction is the loop's point (sim.LoopPoint), not the
// all-at-once simulation alone. A steady closed loop (no burst_requests)
// keeps its simulation and its accuracy band.
func TestFixedLoopVerdictSpansStates(t *testing.T) {
	in := sloInput(t, 1)
	target := 10.0
	in.SLO.TTFT = []spec.TTFTTarget{{InputTokens: 1024, P50S: &target, P99S: &target}}
	in.Workload.BurstRequests = 64
	p := runPerf(t, in)
	s := p.Performance.sim(1024)
	if s == nil || s.Loop == nil {
		t.Fatal("a fixed-length finite closed loop has no loop states")
	}
	st := *s.Loop
	if !st.Wave.Clean(s.OutputTokens) {
		t.Fatalf("8 sessions of 1,024 tokens, 256 out: no clean wave (%d steps)", st.Wave.Steps)
	}
	for _, q := range []string{"p50", "p99"} {
		v := ttftVerdictOf(t, p, q)
		point, lo, hi := loopAt(st, q, s.OutputTokens)
		if math.Abs(v.Predicted/point-1) > 1e-9 {
			t.Errorf("%s: predicted %.4f s, want the loop's point %.4f", q, v.Predicted, point)
		}
		t.Logf("%s: point %.1f ms, states %.1f–%.1f ms (train %.1f, all at once %.1f, wave %.1f / last %.1f, %d steps, spread %.1f ms, turn %.1f ms), band %.1f–%.1f ms",
			q, point*1e3, lo*1e3, hi*1e3, (*percentile(&st.Train, q))*1e3, (*percentile(&st.AllAtOnce, q))*1e3, st.WaveMeanS*1e3, st.WaveLastS*1e3,
			st.Wave.Steps, st.Wave.SpreadS*1e3, st.Wave.TurnS*1e3, v.Band.Low*1e3, v.Band.High*1e3)
		train := *percentile(&st.Train, q)
		if !(lo <= train && train <= hi) {
			t.Errorf("%s: states %.4f–%.4f s do not hold the train's %.4f", q, lo, hi, train)
		}
		b := band.For(band.Dense, ttftRegime(q))
		wl, wh := b.RangeOver(lo, hi)
		if v.Band.Low > wl*(1+1e-9) || v.Band.High < wh*(1-1e-9) {
			t.Errorf("%s: band %.4f–%.4f s does not span the states' %.4f–%.4f", q, v.Band.Low, v.Band.High, wl, wh)
		}
		if hi < 1.2*lo {
			t.Errorf("%s: states %.4f–%.4f s differ by under 1.2×: the test cannot tell a band over them from the point's", q, lo, hi)
		}
		if !strings.Contains(v.BandBasis, "wave") || !strings.Contains(v.BandBasis, "train") {
			t.Errorf("%s: band basis does not name the states: %s", q, v.BandBasis)
		}
	}
	in.Workload.BurstRequests = 0
	steady := runPerf(t, in)
	if s := steady.Performance.sim(1024); s == nil || s.Loop != nil {
		t.Fatal("a steady closed loop got loop states")
	}
	v := ttftVerdictOf(t, steady, "p50")
	if l, h := band.For(band.Dense, band.TTFTMean).Range(v.Predicted); math.Abs(v.Band.Low/l-1) > 1e-9 || math.Abs(v.Band.High/h-1) > 1e-9 {
		t.Errorf("steady loop: band %.4f–%.4f s, want the accuracy band %.4f–%.4f", v.Band.Low, v.Band.High, l, h)
	}
}

// The same loop's throughput verdict is priced on the state its point uses
// (sim.LoopStates.ScaleThroughput, as the calibration replay prices it):
// the all-at-once simulation's output tokens/s times the loop's Rate, and
// its band spans the states' rates. Before, check kept the all-at-once
// figure while the replay judged the wave's.
func TestFixedLoopThroughputOnItsState(t *testing.T) {
	in := sloInput(t, 1)
	in.SLO.ThroughputTokensPerS = 100
	in.Workload.BurstRequests = 64
	p := runPerf(t, in)
	s := p.Performance.sim(in.Workload.InputTokens)
	if s == nil || s.Loop == nil || s.Loop.Cycle.CycleS == 0 || !(s.Loop.Rate > 0) {
		t.Fatal("a fixed-length finite closed loop with no priced wave cycle")
	}
	st := *s.Loop
	v := throughputVerdictOf(t, p)
	if math.Abs(v.Predicted/s.Result.OutputTokPerS-1) > 1e-12 {
		t.Errorf("verdict %.1f tokens/s, the scenario's %.1f", v.Predicted, s.Result.OutputTokPerS)
	}
	lo, hi := v.Predicted*st.RateLo/st.Rate, v.Predicted*st.RateHi/st.Rate
	wl, wh := band.For(band.Dense, band.ThroughputBurst).RangeOver(lo, hi)
	if v.Band.Low > wl*(1+1e-9) || v.Band.High < wh*(1-1e-9) || !strings.Contains(v.BandBasis, "fixed-length closed loop") {
		t.Errorf("band %.1f–%.1f does not span the states' %.1f–%.1f (basis %q)", v.Band.Low, v.Band.High, wl, wh, v.BandBasis)
	}
	if st.Rate == 1 {
		t.Logf("rate 1: the point is the all-at-once run here (wave %v)", st.Wave)
	}
	t.Logf("rate %.3f (states %.3f–%.3f), predicted %.0f tokens/s", st.Rate, st.RateLo, st.RateHi, v.Predicted)
}

// TestLoopTextWindow: the loop's sentence names the queue window only where
// the engine has one (vLLM's V1 engine core), and says which side of it the
// finishing spread falls.
func TestLoopTextWindow(t *testing.T) {
	w := sim.WaveState{Sessions: 5, Steps: 2, SpreadS: 0.02, TurnS: 0.005, WindowS: 0.035}
	st := sim.LoopStates{Wave: w}
	if got := loopText(st, 128, 0.1, 0.3); !strings.Contains(got, "the wave: ") || !strings.Contains(got, "or its 35 ms prefill") {
		t.Errorf("decided by the window: %q", got)
	}
	st.Wave.WindowS = 0
	if got := loopText(st, 128, 0.1, 0.3); !strings.Contains(got, "geometric mean") || strings.Contains(got, "prefill (during") {
		t.Errorf("no window: %q", got)
	}
}

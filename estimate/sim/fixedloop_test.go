package sim

import (
	"math"
	"testing"
)

// The wave model on a dense 8B engine: a wave's steps hold the budget's
// prompts, its k-th prompt waits for the steps up to its own, its last for
// all of them; its finishing spread is W − 1 decode steps, decided against
// the turnaround; the point follows the states (LoopPoint). Bad input
// prices nothing and panics nowhere.
func TestWaveOf(t *testing.T) {
	sm := denseModel(t, 1)
	one := sm.PrefillIdle(2048, 4096).TTFTS // one step of two 1,024-token prompts
	full := sm.PrefillIdle(4096, 4096).TTFTS
	for _, c := range []struct {
		n, in, budget, steps int
		mean, last           float64
	}{
		{4, 1024, 4096, 1, full, full},                        // one step holds the wave
		{8, 1024, 4096, 2, (4*full + 4*2*full) / 8, 2 * full}, // two full steps, four prompts each
		{2, 1024, 4096, 1, one, one},
	} {
		w := WaveOf(sm, c.n, c.in, c.budget, 0.01, 0.005)
		if w.Steps != c.steps || math.Abs(w.MeanS/c.mean-1) > 1e-9 || math.Abs(w.LastS/c.last-1) > 1e-9 {
			t.Errorf("n %d × %d in %d: %d steps, mean %.2f ms, last %.2f ms; want %d, %.2f, %.2f", c.n, c.in, c.budget, w.Steps, w.MeanS*1e3, w.LastS*1e3,
				c.steps, c.mean*1e3, c.last*1e3)
		}
		if spread := float64(c.steps-1) * 0.01; math.Abs(w.SpreadS-spread) > 1e-12 || w.Decided() != (spread <= 0.005) {
			t.Errorf("n %d: spread %.3f s decided %v, want %.3f s", c.n, w.SpreadS, w.Decided(), spread)
		}
	}
	w := WaveOf(sm, 8, 1024, 4096, 0.01, 0.005) // two steps: 10 ms spread > 5 ms turnaround
	if w.Decided() || !w.Clean(256) || w.Clean(2) {
		t.Errorf("two-step wave: decided %v, clean at 256 out %v, at 2 out %v", w.Decided(), w.Clean(256), w.Clean(2))
	}
	if p := LoopPoint(w, 256, 0.4, 0.1); math.Abs(p-0.2) > 1e-12 {
		t.Errorf("undecided point %.3f, want the geometric mean 0.2", p)
	}
	if p := LoopPoint(WaveOf(sm, 4, 1024, 4096, 0.01, 0.005), 256, 0.4, 0.1); p != 0.4 {
		t.Errorf("decided point %.3f, want the wave's 0.4", p)
	}
	if p := LoopPoint(w, 2, 0.4, 0.1); p != 0.1 {
		t.Errorf("no clean wave: point %.3f, want the simulation's 0.1", p)
	}
	for _, bad := range [][3]int{{0, 1024, 4096}, {4, 0, 4096}, {4, 1024, 0}, {-1, -1, -1}, {1 << 20, 1 << 15, 1}} {
		w := WaveOf(sm, bad[0], bad[1], bad[2], 0.01, 0.005)
		if w.Clean(1 << 30) {
			t.Errorf("%v: a clean wave from bad or huge input: %+v", bad, w)
		}
	}
}

// TestQueueWindow: a wave is decided on the first new prompt's prefill as
// well as on the turnaround (UseQueueWindow). Llama-3.1-8B on one H100, 8
// sessions of 4,096-token prompts under a 16,384-token budget: a wave of
// two steps, so its sessions finish one decode step apart — longer than a
// 1 ms turnaround, well inside the first prompt's prefill, during which
// the engine schedules nothing new. Decided (the wave is the point) with
// the window on vLLM's V1 engine, undecided (the geometric mean) without it
// or on another engine.
func TestQueueWindow(t *testing.T) {
	defer func(old bool) { UseQueueWindow = old }(UseQueueWindow)
	sm := denseModel(t, 1)
	cfg := Config{Sessions: 8, InputTokens: 4096, OutputTokens: 256, MaxNumBatchedTokens: 16384,
		Frontend: Frontend{RequestS: 1e-3, Servers: 1}, QueueWindow: true}
	all := Result{TTFT: Percentiles{Mean: 0.05, P99: 0.08}}
	run := func(Config) Result { return Result{} }
	UseQueueWindow = true
	st, ok := FixedLoopStates(sm, cfg, all, run)
	if !ok {
		t.Fatal("no loop states")
	}
	w := st.Wave
	if want := sm.PrefillIdle(4096, 16384).TTFTS; math.Abs(w.WindowS/want-1) > 1e-12 {
		t.Errorf("window %.2f ms, want the first prompt's idle prefill %.2f", w.WindowS*1e3, want*1e3)
	}
	if w.Steps != 2 || !(w.SpreadS > w.TurnS) || !(w.SpreadS <= w.WindowS) {
		t.Fatalf("the case must sit between the turnaround and the window: %d steps, spread %.2f ms, turnaround %.2f, window %.2f",
			w.Steps, w.SpreadS*1e3, w.TurnS*1e3, w.WindowS*1e3)
	}
	if !w.Decided() || st.Mean != st.WaveMeanS {
		t.Errorf("decided %v, point %.1f ms; want the wave's %.1f", w.Decided(), st.Mean*1e3, st.WaveMeanS*1e3)
	}
	// Off, or an engine whose loop was not read (V0, SGLang): the
	// turnaround alone decides.
	for _, off := range []struct {
		use, engine bool
	}{{false, true}, {true, false}} {
		UseQueueWindow, cfg.QueueWindow = off.use, off.engine
		st, _ = FixedLoopStates(sm, cfg, all, run)
		if st.Wave.WindowS != 0 || st.Wave.Decided() || math.Abs(st.Mean/math.Sqrt(st.WaveMeanS*all.TTFT.Mean)-1) > 1e-12 {
			t.Errorf("UseQueueWindow %v, V1 engine %v: window %.2f ms, decided %v, point %.1f ms; want 0, false, the geometric mean",
				off.use, off.engine, st.Wave.WindowS*1e3, st.Wave.Decided(), st.Mean*1e3)
		}
	}
}

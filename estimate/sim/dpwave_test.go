package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestDPWave, by hand: DP 2, every step (dummy steps too) 10 ms, one
// closed-loop session whose requests take two steps (a one-token prompt's
// prefill gives the first token, one decode ends it) and come back 25 ms
// after the last token.
//
// Request 1 arrives at t = 0 to an idle group: the wave starts, TTFT 10 ms
// (the prefill step), and it finishes at 20 ms with the step counter at 2.
// The ranks then run dummy steps (20, 30, 40, 50 ms …). Request 2 arrives
// at 45 ms, during the third dummy step, and is taken at its end, 50 ms:
// TTFT 5 + 10 = 15 ms; the counter is 2 + 3 + 2 = 7 when it finishes.
// Each further request adds 5 steps: after request k the counter is
// 5k − 3, 32 for k = 7, a multiple of 32 with no rank holding work, so the
// wave ends there and request 8 finds an idle group again (TTFT 10 ms),
// and so on: per cycle of 7 requests one of 10 ms and six of 15 ms.
//
// With a think time of 1 s the 30 dummy steps (300 ms) end the wave
// before each request comes: every TTFT is 10 ms, as without waves.
func TestDPWave(t *testing.T) {
	const step = 0.01
	cfg := Config{Step: constStep(step), DP: 2, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 1, OutputTokens: 2,
		Sessions: 1, ThinkS: 0.025, ThinkFixed: true, Requests: 8, Warmup: 0, Seed: 1, DPWave: true}
	r := Run(cfg)
	if want := (2*0.010 + 6*0.015) / 8; r.Requests != 8 || math.Abs(r.TTFT.Mean-want) > 1e-9 {
		t.Errorf("think 25 ms: %d requests, mean TTFT %.6f s; want 8 and %.6f s (requests 1 and 8 of 10 ms, six of 15 ms)", r.Requests, r.TTFT.Mean, want)
	}
	if r.TTFT.P50 < 0.015-1e-9 || r.TTFTQuantiles[0] > 0.010+1e-9 {
		t.Errorf("think 25 ms: median TTFT %.6f s, fastest %.6f s; want 15 ms and 10 ms", r.TTFT.P50, r.TTFTQuantiles[0])
	}
	// Under async scheduling the check after request 7's last step is
	// one dummy step later, at 33: the wave runs 31 more dummy steps and
	// request 8 waits as the others did.
	cfg.ScheduleAhead = true
	if a := Run(cfg); math.Abs(a.TTFT.Mean-(0.010+7*0.015)/8) > 1e-9 {
		t.Errorf("async, think 25 ms: mean TTFT %.6f s; want %.6f s (only request 1 of 10 ms)", a.TTFT.Mean, (0.010+7*0.015)/8)
	}
	cfg.ScheduleAhead = false
	cfg.DPWave = false
	if off := Run(cfg); math.Abs(off.TTFT.Mean-step) > 1e-9 {
		t.Errorf("without waves: mean TTFT %.6f s; want one 10 ms step", off.TTFT.Mean)
	}
	cfg.DPWave, cfg.ThinkS = true, 1
	if long := Run(cfg); math.Abs(long.TTFT.Mean-step) > 1e-9 {
		t.Errorf("think 1 s: mean TTFT %.6f s; want 10 ms (the wave ends 300 ms after each request)", long.TTFT.Mean)
	}
}

// TestDPWaveFor: only vLLM's MoE DP engines step in waves.
func TestDPWaveFor(t *testing.T) {
	defer func(v bool) { UseDPWave = v }(UseDPWave)
	UseDPWave = true
	for _, c := range []struct {
		vllm, moe bool
		dp        int
		want      bool
	}{{true, true, 8, true}, {true, false, 8, false}, {true, true, 1, false}, {false, true, 8, false}} {
		if got := DPWaveFor(c.vllm, c.moe, c.dp); got != c.want {
			t.Errorf("DPWaveFor(vllm %v, moe %v, dp %d) = %v; want %v", c.vllm, c.moe, c.dp, got, c.want)
		}
	}
	UseDPWave = false
	if DPWaveFor(true, true, 8) {
		t.Error("DPWaveFor with UseDPWave off = true")
	}
}

// TestDPWaveDummyStep, by hand: TestDPWave's group with its dummy steps
// priced apart (Config.DummyStep, 20 ms; a real step 10 ms), as a release
// that runs the dummy batch without CUDA graphs does. Request 1 finishes
// at 20 ms (counter 2); dummy steps run 20–40 and 40–60 ms; request 2
// arrives at 45 ms and is taken at 60 ms: TTFT 15 + 10 = 25 ms. Each
// request then adds two dummy steps and two real ones (counter 4k − 2
// after request k, at most 28 during request 8's wait: the wave runs on).
// So request 1 takes 10 ms and the other seven 25 ms; with DummyStep nil
// the dummy steps cost a real step's 10 ms (TestDPWave).
func TestDPWaveDummyStep(t *testing.T) {
	cfg := Config{Step: constStep(0.01), DummyStep: constStep(0.02), DP: 2, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 1, OutputTokens: 2,
		Sessions: 1, ThinkS: 0.025, ThinkFixed: true, Requests: 8, Warmup: 0, Seed: 1, DPWave: true}
	if r, want := Run(cfg), (0.010+7*0.025)/8; r.Requests != 8 || math.Abs(r.TTFT.Mean-want) > 1e-9 {
		t.Errorf("dummy step 20 ms: %d requests, mean TTFT %.6f s; want 8 and %.6f s", r.Requests, r.TTFT.Mean, want)
	}
	cfg.DummyStep = nil
	if r, want := Run(cfg), (2*0.010+6*0.015)/8; math.Abs(r.TTFT.Mean-want) > 1e-9 {
		t.Errorf("dummy step priced by Step: mean TTFT %.6f s; want %.6f s", r.TTFT.Mean, want)
	}
}

// TestDummyStepFor: RunModel's simulations and the replay's price a wave's
// dummy step with the step model's DummyStepRuns only with
// UseEagerDummyStep on.
func TestDummyStepFor(t *testing.T) {
	defer func(v bool) { UseEagerDummyStep = v }(UseEagerDummyStep)
	UseEagerDummyStep = false
	if DummyStepFor(nil) != nil || tiledDummyStep(nil, 1, 1, true) != nil {
		t.Fatal("UseEagerDummyStep off: want no Config.DummyStep")
	}
	UseEagerDummyStep = true
	if DummyStepFor(nil) == nil || tiledDummyStep(nil, 1, 1, true) == nil || tiledDummyStep(nil, 1, 1, false) != nil {
		t.Fatal("UseEagerDummyStep on: want Config.DummyStep for lock-step ranks only")
	}
}

// TestRunModelDummyStep: the plans RunModel simulates price a wave's dummy
// step (one token on every simulated rank) as the step model's
// DummyStepRuns: in a release that graphs the dummy batch (0.11.0 on) it is
// the one-sequence decode step Step prices; in one that runs it eagerly
// (IdleRanksSlow, 0.10.1–0.10.2) it costs more than that graphed step
// (the launches of a step without graphs), and as much as Step prices one
// token beside idle ranks (the few-sessions plan: other ranks idle), which
// such a release runs without graphs too.
func TestRunModelDummyStep(t *testing.T) {
	sm := moeModel(t, 8)
	cfg := Config{DP: 8, MaxNumSeqs: 64, MaxNumBatchedTokens: 4096, InputTokens: 64, OutputTokens: 64, Sessions: 32, DPWave: true}
	ones := func(k int) []perf.RankLoad {
		l := make([]perf.RankLoad, k)
		for i := range l {
			l[i] = perf.RankLoad{DecodeSeqs: 1, DecodeCtx: 1}
		}
		return l
	}
	p := planSim(sm, cfg)
	if p.cfg.DummyStep == nil || p.cfg.DummyStep(ones(p.cfg.DP)) != p.cfg.Step(ones(p.cfg.DP)) {
		t.Fatalf("graphed release: dummy step not the one-sequence decode step")
	}
	s := sm.S
	s.IdleRanksSlow = true
	slow := perf.NewStepModel(s)
	p = planSim(slow, cfg)
	l := ones(p.cfg.DP)
	if d, g := p.cfg.DummyStep(l), p.cfg.Step(l); !(d > g) {
		t.Fatalf("eager release: dummy step %.2f ms, graphed one-sequence step %.2f ms; want the launches on top", d*1e3, g*1e3)
	}
	cfg.Sessions = 2 // fewer than the ranks: the others idle
	p = planSim(slow, cfg)
	l = ones(p.cfg.DP)
	if d, g := p.cfg.DummyStep(l), p.cfg.Step(l); d != g {
		t.Fatalf("eager release, few sessions: dummy step %.2f ms, step beside idle ranks %.2f ms; want the same", d*1e3, g*1e3)
	}
}

// TestDPWaveRunAhead, by hand: TestDPWave's group (every step 10 ms, one
// session of two-step requests coming back 25 ms after their last token)
// whose hosts run dummy steps ahead of the GPU (Config.WaveRunAhead).
//
// One ahead (vLLM 0.19.0 without async scheduling): request 2 arrives at
// 45 ms, during the third dummy step; the hosts launched the fourth before
// reading it, so it is taken at 60 ms: TTFT 15 + 10 = 25 ms, and each
// request adds 4 dummy and 2 real steps to the counter (6k − 4 after
// request k). After request 6 it is 32 with no work: the wave ends, and
// request 7 finds the group idle (10 ms); request 8 waits again (25 ms).
// Mean (10 + 5·25 + 10 + 25) / 8 ms.
//
// Two ahead under async scheduling (0.19.0's default): taken at 70 ms,
// TTFT 35 ms, 7 steps a request (7k − 5). After request 5 (30) the first
// check without work is one dummy step later (31), the wave ends after
// the second dummy step, at 40 ms, before request 6 comes (45 ms): 10 ms;
// requests 7 and 8 wait 35 ms. Mean (10 + 4·35 + 10 + 2·35) / 8 ms.
func TestDPWaveRunAhead(t *testing.T) {
	cfg := Config{Step: constStep(0.01), DP: 2, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 1, OutputTokens: 2,
		Sessions: 1, ThinkS: 0.025, ThinkFixed: true, Requests: 8, Warmup: 0, Seed: 1, DPWave: true, WaveRunAhead: 1}
	if r, want := Run(cfg), (0.010+5*0.025+0.010+0.025)/8; r.Requests != 8 || math.Abs(r.TTFT.Mean-want) > 1e-9 {
		t.Errorf("one ahead: %d requests, mean TTFT %.6f s; want 8 and %.6f s", r.Requests, r.TTFT.Mean, want)
	}
	cfg.WaveRunAhead, cfg.ScheduleAhead = 2, true
	if r, want := Run(cfg), (0.010+4*0.035+0.010+2*0.035)/8; math.Abs(r.TTFT.Mean-want) > 1e-9 {
		t.Errorf("two ahead, async: mean TTFT %.6f s; want %.6f s", r.TTFT.Mean, want)
	}
}

// TestWaveRunAheadFor: the run-ahead comes from the release only with
// UseDummyRunAhead on; 0.11.0's dummy pass waits for its own graph.
func TestWaveRunAheadFor(t *testing.T) {
	defer func(v bool) { UseDummyRunAhead = v }(UseDummyRunAhead)
	r019, _, err := vllm.ResolveString("0.19.0")
	r011, _, err2 := vllm.ResolveString("0.11.0")
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	UseDummyRunAhead = false
	if WaveRunAheadFor(r019, true) != 0 {
		t.Fatal("UseDummyRunAhead off: want no run-ahead")
	}
	UseDummyRunAhead = true
	for _, c := range []struct {
		r     vllm.Release
		async bool
		want  int
	}{{r019, true, 2}, {r019, false, 1}, {r011, true, 0}, {r011, false, 0}} {
		if got := WaveRunAheadFor(c.r, c.async); got != c.want {
			t.Errorf("%s async %v: run-ahead %d, want %d", c.r.Version, c.async, got, c.want)
		}
	}
}

// TestRunAheadIdleRank, by hand: two lock-step ranks stepping without a
// pause, steps of 10 ms starting at 0, 10 and 20 ms (now: 30 ms, the last
// ended), rank 0 running a request, rank 1 none (it runs dummy batches).
// A request handed to the busy rank after the cut-off waits for the next
// step: synchronously the cut-off is now (30 ms), under async scheduling
// the last step's start (20 ms, the step about to run was scheduled then).
// With the hosts running dummy steps ahead (WaveRunAhead) the idle rank's
// cut-off is one step earlier: 20 ms synchronously, 10 ms under async
// scheduling; the busy rank's is unchanged, and with no run-ahead both
// ranks take the busy rank's.
func TestRunAheadIdleRank(t *testing.T) {
	defer func(v bool) { UseIdleRankRunAhead = v }(UseIdleRankRunAhead)
	UseIdleRankRunAhead = true
	for _, c := range []struct {
		async          bool
		ahead          int
		busy, idleRank float64
	}{{false, 0, 0.030, 0.030}, {true, 0, 0.020, 0.020}, {false, 1, 0.030, 0.020}, {true, 2, 0.020, 0.010}} {
		s := newSimulator(Config{Step: constStep(0.01), DP: 2, MaxNumSeqs: 4, MaxNumBatchedTokens: 64, DPWave: true,
			ScheduleAhead: c.async, WaveRunAhead: c.ahead})
		s.ranks[0].running = []simReq{{}}
		s.prevStart, s.stepStart, s.stepEnd, s.now = 0.010, 0.020, 0.030, 0.030
		if b, i := s.runAheadBy(&s.ranks[0]), s.runAheadBy(&s.ranks[1]); b != c.busy || i != c.idleRank {
			t.Errorf("async %v, run-ahead %d: cut-off %.3f s busy, %.3f s idle; want %.3f and %.3f", c.async, c.ahead, b, i, c.busy, c.idleRank)
		}
		UseIdleRankRunAhead = false
		if i := s.runAheadBy(&s.ranks[1]); i != c.busy {
			t.Errorf("UseIdleRankRunAhead off, async %v: idle rank's cut-off %.3f s, want the busy rank's %.3f", c.async, i, c.busy)
		}
		UseIdleRankRunAhead = true
	}
}

package sim

import (
	"math"
	"testing"
	"time"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/vllm"
)

// moeModel is DeepSeek-V3 on H20 nodes of 8 with EP over dp ranks.
func moeModel(t testing.TB, dp int) *perf.StepModel {
	t.Helper()
	m, err := catalog.LookupModel("deepseek-v3")
	g, gerr := catalog.LookupGPU("h20-96g")
	if err != nil || gerr != nil {
		t.Fatal(err, gerr)
	}
	return perf.NewStepModel(perf.StepSetup{Model: m, HW: perf.NewHardware(g, 8, 450, 2, 100, 1, 10), TP: 1, PP: 1, DP: dp, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficGather, CUDAGraphs: true, Eff: perf.DefaultEfficiency})
}

func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Abs(want) {
		t.Errorf("%s: %.4g, simulated in full %.4g (tolerance %.0f%%)", what, got, want, tol*100)
	}
}

// TestRepresentativeRanks: 256 lock-step ranks simulated as 128 tiled
// twice stay close to simulating all of them, under Poisson arrivals
// below capacity (a closed loop of identical requests settles into waves
// whose phase depends on the run, which would blur the comparison). The
// tolerances are what tiling costs: a rank and its copy prefill in the
// same steps, which the real ranks do not (see MaxRepRanks).
func TestRepresentativeRanks(t *testing.T) {
	sm := moeModel(t, 256)
	for _, rate := range []float64{2, 5} {
		cfg := Config{Step: sm.StepSeconds, DP: 256, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 300, OutputTokens: 200,
			ArrivalRatePerS: rate, Requests: 6000, Warmup: 1000, Seed: 1}
		if p := planSim(sm, cfg); p.cfg.DP != 128 || p.copies != 2 || p.cfg.ArrivalRatePerS != cfg.ArrivalRatePerS/2 {
			t.Fatalf("plan: %d ranks × %d copies at %g/s", p.cfg.DP, p.copies, p.cfg.ArrivalRatePerS)
		}
		full, rep := Run(cfg), RunModel(sm, cfg)
		within(t, "output tokens/s", rep.OutputTokPerS, full.OutputTokPerS, 0.03)
		within(t, "TPOT p50", rep.TPOT.P50, full.TPOT.P50, 0.10)
		within(t, "TTFT p50", rep.TTFT.P50, full.TTFT.P50, 0.25)
		within(t, "running", rep.MeanRunning, full.MeanRunning, 0.10)
	}
}

// TestQueuedSessionsAnalytic: sessions far beyond what can run are not
// simulated; their FIFO wait (Little's law) is added, and agrees with
// simulating every session.
func TestQueuedSessionsAnalytic(t *testing.T) {
	sm := moeModel(t, 4)
	cfg := Config{Step: sm.StepSeconds, DP: 4, MaxNumSeqs: 8, MaxNumBatchedTokens: 4096, InputTokens: 500, OutputTokens: 100,
		Sessions: 400, Requests: 6000, Warmup: 2000, Seed: 2, StaggerS: 1}
	p := planSim(sm, cfg)
	if p.cfg.Sessions != queueSlots*8*4 || p.extraSessions != 400-64 {
		t.Fatalf("plan: %d sessions simulated, %.0f analytic", p.cfg.Sessions, p.extraSessions)
	}
	full, fast := Run(cfg), RunModel(sm, cfg)
	within(t, "output tokens/s", fast.OutputTokPerS, full.OutputTokPerS, 0.03)
	within(t, "TTFT mean", fast.TTFT.Mean, full.TTFT.Mean, 0.05)
	within(t, "TTFT p50", fast.TTFT.P50, full.TTFT.P50, 0.08) // waves: see TestRepresentativeRanks
	within(t, "E2E p50", fast.E2E.P50, full.E2E.P50, 0.05)
	within(t, "waiting", fast.MeanWaiting, full.MeanWaiting, 0.05)
}

// TestHugeWorkloadsBounded: a million sessions, a million arrivals per
// second and 80,000 DP ranks cost what a small run costs.
func TestHugeWorkloadsBounded(t *testing.T) {
	for _, c := range []struct {
		name     string
		dp       int
		sessions int
		rate     float64
	}{{"1e6 sessions", 32, 1000000, 0}, {"80,000 ranks", 80000, 200000, 0}, {"1e6 requests/s", 32, 0, 1e6}} {
		sm := moeModel(t, c.dp)
		cfg := Config{Step: sm.StepSeconds, DP: c.dp, MaxNumSeqs: 256, MaxNumBatchedTokens: 8192, KVTokensPerRank: 200000, BlockSize: 64,
			InputTokens: 2000, OutputTokens: 1000, Sessions: c.sessions, ArrivalRatePerS: c.rate, Warmup: 2 * c.sessions, Seed: 1, StaggerS: 10}
		start := time.Now()
		res := RunModelReplicated(sm, cfg, 0)
		if d := time.Since(start); d > 20*time.Second || res.Requests == 0 && !res.Overloaded {
			t.Errorf("%s: %v, %+v", c.name, d, res)
		}
	}
}

// TestFewSessionsManyRanks: 200 sessions on 10,000 lock-step ranks are
// 200 busy ranks (one session each) and idle ones, simulated as 40 busy
// ranks tiled 5 times, not as 125 mostly idle ones.
func TestFewSessionsManyRanks(t *testing.T) {
	sm := moeModel(t, 10000)
	cfg := Config{Step: sm.StepSeconds, DP: 10000, MaxNumSeqs: 64, MaxNumBatchedTokens: 4096, InputTokens: 1000, OutputTokens: 200,
		Sessions: 200, Requests: 2000, Warmup: 400, Seed: 1, StaggerS: 5}
	p := planSim(sm, cfg)
	if p.cfg.DP != 104 || p.cfg.Sessions != 104 || p.copies != 2 {
		t.Fatalf("plan: %d ranks, %d sessions, %d copies", p.cfg.DP, p.cfg.Sessions, p.copies)
	}
	cfg.Sessions = 40
	if p = planSim(sm, cfg); p.cfg.DP != 40 || p.cfg.Sessions != 40 || p.copies != 1 {
		t.Fatalf("40 sessions: %d ranks, %d sessions, %d copies", p.cfg.DP, p.cfg.Sessions, p.copies)
	}
	if k, few := SimulatedRanks(sm, cfg); k != 40 || !few {
		t.Errorf("SimulatedRanks with 40 sessions: %d ranks, few %v; want the plan's 40 busy ranks", k, few)
	}
	cfg.Sessions = 20000
	if k, few := SimulatedRanks(sm, cfg); k != planSim(sm, cfg).cfg.DP || k > MaxRepRanks || few {
		t.Errorf("SimulatedRanks with 20000 sessions: %d ranks, few %v; want the plan's representatives", k, few)
	}
	if busyRanks(7, 7, 1, 8) != 4 || busyRanks(7, 7, 8, 8) != 7 || busyRanks(3, 3, 2, 8) != 2 || busyRanks(128, 1000, 1, 8) != 128 || busyRanks(128, 200, 1, 8) != 104 {
		t.Error("busyRanks")
	}
}

func TestRepRanks(t *testing.T) {
	for _, c := range []struct{ dp, tp, g, limit, want int }{
		{32, 1, 8, 128, 32}, {24, 1, 8, 128, 24}, {256, 1, 8, 128, 128}, {10000, 1, 8, 128, 80}, {9973 * 8, 1, 8, 128, 8},
		{80000, 8, 8, 128, 128}, {100, 1, 8, 128, 100}, {200, 1, 8, 128, 40}, {64, 1, 8, 4, 4}, {137, 1, 8, 128, 1}, {1000, 1, 8, 500, 40},
	} {
		if got := repRanks(c.dp, c.tp, c.g, c.limit); got != c.want {
			t.Errorf("repRanks(%d, %d, %d, %d) = %d, want %d", c.dp, c.tp, c.g, c.limit, got, c.want)
		}
	}
}

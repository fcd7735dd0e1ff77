package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestIndependentRanksByHand: two dense DP ranks step each on its own
// clock. Stub step: 1 ms + 10 µs per prefill token (a 1,000-token prompt
// takes 11 ms). Request A (1,000 in, 100 out) arrives at 0 on rank 0: its
// prompt 0–11 ms (first token at 11 ms), then 99 decodes of 1 ms (done at
// 110 ms). Request B arrives at 50 ms and goes to the idle rank 1 (the
// fewest requests), which starts at once: prompt 50–61 ms, done at 160 ms.
// Neither rank waits for the other, so every TTFT is 11 ms and every TPOT
// 1 ms exactly; the run delivers 200 tokens over 160 ms (1,250 tok/s).
// In lock-step (Independent off) B's 11 ms prompt step holds A's decode
// back, and B waits for the step in flight when it arrives.
func TestIndependentRanksByHand(t *testing.T) {
	run := func(independent bool) Result {
		cfg := Config{DP: 2, MaxNumSeqs: 8, MaxNumBatchedTokens: 4096, InputTokens: 1000, OutputTokens: 100, Sessions: 2, Pool: 2, Seed: 1,
			Independent: independent,
			Step: func(loads []perf.RankLoad) float64 {
				if independent && len(loads) != 1 {
					t.Fatalf("independent rank stepped with %d loads", len(loads))
				}
				var p float64
				for _, l := range loads {
					p = max(p, l.PrefillTokens)
				}
				return 1e-3 + 1e-5*p
			}}
		s := newSimulator(cfg)
		s.pending[1].arrival = 0.050
		s.run()
		return s.result()
	}
	ind := run(true)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if ind.Requests != 2 || !near(ind.TTFT.Mean, 0.011) || !near(ind.TTFT.P99, 0.011) || !near(ind.TPOT.Mean, 0.001) || !near(ind.TPOT.P99, 0.001) ||
		!near(ind.E2E.P99, 0.110) || math.Abs(ind.OutputTokPerS-1250) > 1e-6 {
		t.Errorf("independent: %d requests, TTFT %.4f/%.4f s, TPOT %.5f/%.5f s, E2E %.4f s, %.1f tok/s; hand: 2, 0.011, 0.001, 0.110, 1250",
			ind.Requests, ind.TTFT.Mean, ind.TTFT.P99, ind.TPOT.Mean, ind.TPOT.P99, ind.E2E.P99, ind.OutputTokPerS)
	}
	lock := run(false)
	if !(lock.TPOT.P99 > 0.001+1e-6) {
		t.Errorf("lock-step: TPOT p99 %.5f s, want A's decode held back by B's prompt step (> 1 ms)", lock.TPOT.P99)
	}
}

// denseModel is Llama-3.1-8B at BF16 on one node of 4 H100s, TP 1, DP dp.
func denseModel(t testing.TB, dp int) *perf.StepModel {
	t.Helper()
	m, err := catalog.LookupModel("llama-3.1-8b")
	g, gerr := catalog.LookupGPU("h100-sxm")
	if err != nil || gerr != nil {
		t.Fatal(err, gerr)
	}
	return perf.NewStepModel(perf.StepSetup{Model: m, HW: perf.NewHardware(g, 4, 450, 2, 100, 1, 10), TP: 1, PP: 1, DP: dp,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: perf.DefaultEfficiency})
}

type rankStep struct {
	rank   int
	at, dt float64
	load   perf.RankLoad
}

// recordRankSteps runs f with every independent rank's step recorded.
func recordRankSteps(f func()) []rankStep {
	var steps []rankStep
	onRankStep = func(rank int, at float64, l perf.RankLoad, dt float64) {
		steps = append(steps, rankStep{rank, at, dt, l})
	}
	defer func() { onRankStep = nil }()
	f()
	return steps
}

// offShare is the time-weighted mean, over the recorded steps after t0,
// of how far a rank's running sequences stand from share (the exact
// balance), and the time-weighted share of steps more than 4 away.
func offShare(steps []rankStep, share, t0 float64) (dev, far float64) {
	var w float64
	for _, s := range steps {
		if s.at < t0 {
			continue
		}
		d := math.Abs(s.load.DecodeSeqs + s.load.PrefillSeqs - share)
		dev += d * s.dt
		if d > 4 {
			far += s.dt
		}
		w += s.dt
	}
	return dev / w, far / w
}

// TestDenseDPCheckIsReplay: check (RunModel: planSim's plan of a dense DP 4
// deployment) and the calibration replay (estimate/replay's simulate: every
// rank, Independent from IndependentRanks, stepped on RankStep) run one
// dense DP 4 deployment the same way: with the same seed and vLLM's
// internal balancer (4 API servers, views every 100 ms), the same rank
// steps with the same loads in the same order, and the same result.
//
// Then the balance. 128 sessions of 512 in / 256 out over 4 ranks: 32 a
// rank in exact balance. Under external LB (no vLLM balancer: every
// request to the rank with the fewest requests at that instant) the ranks
// share evenly: a rank's batch stands within 1 of 32 on average and never
// more than 4 from it (measured with seed 3, after the first quarter of the
// run: 0.21 on average, 0% of the time). Under the internal balancer's
// stale views they do not (1.46 on average, 1.6% of the time more than 4
// off). Each rank's long-run mean is 32 either way (the ranks are alike):
// the imbalance is in the batches of the moment.
func TestDenseDPCheckIsReplay(t *testing.T) {
	if !UseIndependentDP {
		t.Skip("UseIndependentDP off")
	}
	const dp = 4
	sm := denseModel(t, dp)
	internal := DPLB{Clients: 4, IntervalS: DPLBPublishIntervalS}
	base := Config{DP: dp, MaxNumSeqs: 256, MaxNumBatchedTokens: 8192, InputTokens: 512, OutputTokens: 256, BlockSize: 16,
		Sessions: 128, Requests: 3000, Warmup: 256, StaggerS: 0.5, Seed: 3, DPLB: internal,
		Frontend: Frontend{RequestS: 2e-4, TokenS: 2e-6, Servers: 4}}
	replay := base // as estimate/replay's simulate builds it
	replay.Step, replay.Independent = RankStep(sm).StepSeconds, IndependentRanks(false, dp)
	var check, rep Result
	checkSteps := recordRankSteps(func() { check = RunModelReplicated(sm, base, 1) })
	repSteps := recordRankSteps(func() { rep = Run(replay) })
	if k, _ := SimulatedRanks(sm, base); k != dp {
		t.Errorf("check simulates %d of the %d dense ranks", k, dp)
	}
	if len(checkSteps) == 0 || len(checkSteps) != len(repSteps) {
		t.Fatalf("check ran %d rank steps, the replay %d", len(checkSteps), len(repSteps))
	}
	for i := range checkSteps {
		if checkSteps[i] != repSteps[i] {
			t.Fatalf("rank step %d: check %+v, replay %+v", i, checkSteps[i], repSteps[i])
		}
	}
	if check != rep {
		t.Errorf("check %+v\nreplay %+v", check, rep)
	}

	ext := replay
	ext.DPLB = DPLB{}
	var t0 float64
	extSteps := recordRankSteps(func() { r := Run(ext); t0 = r.SimulatedS / 4 })
	edev, efar := offShare(extSteps, 32, t0)
	ldev, lfar := offShare(repSteps, 32, rep.SimulatedS/4)
	t.Logf("rank batches off the exact 32: external LB %.2f on average (%.1f%% of the time > 4), internal LB %.2f (%.1f%%)", edev, 100*efar, ldev, 100*lfar)
	if edev > 1 || efar > 0.01 {
		t.Errorf("external LB: rank batches %.2f off 32 on average, %.1f%% of the time more than 4: want the ranks to share evenly", edev, 100*efar)
	}
	if !(ldev > 1) || !(ldev > 4*edev) || !(lfar > efar) {
		t.Errorf("internal LB: rank batches %.2f off 32 on average (external %.2f), %.1f%% of the time more than 4: want them out of balance", ldev, edev, 100*lfar)
	}
}

// TestIndependentRanksAreDP1Engines: two independent ranks with a session
// each (no balancer, no front end) are two DP-1 engines: each session
// starts on a rank of its own (the fewest requests) and its next request
// returns to that rank, which its finished one has left, so every request
// runs as the one session of a DP-1 engine does — the same TTFT and TPOT
// distributions, twice the throughput — with async scheduling's step
// scheduled ahead kept per rank. (Before an independent rank's finished
// requests left it ahead of their sessions' next ones, two ranks ending
// a step together sent both next requests to rank 0.)
func TestIndependentRanksAreDP1Engines(t *testing.T) {
	sm := denseModel(t, 1)
	base := Config{Step: sm.StepSeconds, MaxNumSeqs: 64, MaxNumBatchedTokens: 2048, InputTokens: 3000, OutputTokens: 64,
		Requests: 200, Warmup: 10, Seed: 1, ScheduleAhead: true}
	one, two := base, base
	one.DP, one.Sessions = 1, 1
	two.DP, two.Sessions, two.Requests, two.Warmup, two.Independent = 2, 2, 400, 20, true
	a, b := Run(one), Run(two)
	// (The DP-1 engine coalesces steady steps, sim_steady.go, summing the
	// same durations in another order: equal to rounding.)
	same := func(x, y Percentiles) bool {
		for _, p := range [][2]float64{{x.Mean, y.Mean}, {x.P50, y.P50}, {x.P90, y.P90}, {x.P99, y.P99}} {
			if math.Abs(p[0]-p[1]) > 1e-9*math.Abs(p[0]) {
				return false
			}
		}
		return true
	}
	if a.Requests == 0 || !same(a.TTFT, b.TTFT) || !same(a.TPOT, b.TPOT) || !same(a.E2E, b.E2E) || math.Abs(b.OutputTokPerS/a.OutputTokPerS-2) > 1e-9 {
		t.Errorf("DP-1 engine: TTFT %+v TPOT %+v, %.1f tok/s\ntwo independent ranks: TTFT %+v TPOT %+v, %.1f tok/s (want the same latencies, twice the throughput)",
			a.TTFT, a.TPOT, a.OutputTokPerS, b.TTFT, b.TPOT, b.OutputTokPerS)
	}
}

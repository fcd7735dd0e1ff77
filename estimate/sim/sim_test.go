package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// constStep is a step model whose every step takes d seconds.
func constStep(d float64) func([]perf.RankLoad) float64 {
	return func([]perf.RankLoad) float64 { return d }
}

// M/D/1: Poisson arrivals, one request served at a time in a fixed time S
// (max_num_seqs 1, one output token, the whole prompt in one chunk). The
// Pollaczek–Khinchine mean wait is ρS / (2(1−ρ)); TTFT = wait + S.
func TestSimMD1MatchesPollaczekKhinchine(t *testing.T) {
	const S = 0.01
	for _, rho := range []float64{0.5, 0.8} {
		res := Run(Config{Step: constStep(S), DP: 1, MaxNumSeqs: 1, MaxNumBatchedTokens: 1 << 20,
			InputTokens: 100, OutputTokens: 1, ArrivalRatePerS: rho / S, Requests: 200000, Warmup: 2000, Seed: 1})
		want := S + rho*S/(2*(1-rho))
		if math.Abs(res.TTFT.Mean-want)/want > 0.03 {
			t.Fatalf("ρ=%.1f: mean TTFT %.5f s, P-K %.5f s", rho, res.TTFT.Mean, want)
		}
	}
}

// The same seed gives the same run; another seed a different one.
func TestSimDeterministicForSeed(t *testing.T) {
	cfg := Config{Step: func(l []perf.RankLoad) float64 { return 0.005 + 1e-6*l[0].PrefillTokens + 1e-4*l[0].DecodeSeqs },
		DP: 2, MaxNumSeqs: 16, MaxNumBatchedTokens: 2048, InputTokens: 300, OutputTokens: 50,
		ArrivalRatePerS: 100, Requests: 3000, Warmup: 100, Seed: 7}
	a, b := Run(cfg), Run(cfg)
	if a != b {
		t.Fatalf("same seed, different results:\n%+v\n%+v", a, b)
	}
	cfg.Seed = 8
	if c := Run(cfg); c.TTFT == a.TTFT {
		t.Fatalf("different seeds gave identical TTFT %+v", c.TTFT)
	}
}

// Closed loop with a constant step: every step serves every session, so
// TPOT = step and throughput = sessions / step once prefills are rare.
func TestSimClosedLoopThroughput(t *testing.T) {
	const S = 0.02
	res := Run(Config{Step: constStep(S), DP: 4, MaxNumSeqs: 64, MaxNumBatchedTokens: 8192,
		InputTokens: 100, OutputTokens: 200, Sessions: 40, Requests: 2000, Warmup: 200, Seed: 3, StaggerS: 200 * S})
	if math.Abs(res.TPOT.P50-S)/S > 0.01 {
		t.Fatalf("TPOT p50 %.4f, want %.4f", res.TPOT.P50, S)
	}
	want := 40 / S * 200 / 201 // one of every 201 steps of a request is its prefill
	if math.Abs(res.OutputTokPerS-want)/want > 0.03 {
		t.Fatalf("output %.0f tok/s, want ≈ %.0f", res.OutputTokPerS, want)
	}
}

// KV capacity limits admission: with room for 2 requests per rank only 2 run.
func TestSimKVCapacityLimitsAdmission(t *testing.T) {
	res := Run(Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 8192,
		KVTokensPerRank: 2 * 160, BlockSize: 16, InputTokens: 100, OutputTokens: 50, Sessions: 10,
		Requests: 500, Warmup: 50, Seed: 1})
	if res.MeanRunning > 2.01 || res.MeanWaiting < 7 {
		t.Fatalf("running %.2f waiting %.2f; KV fits 2", res.MeanRunning, res.MeanWaiting)
	}
}

// Preemption: prompts fit but outputs outgrow the cache, so decodes evict.
func TestSimPreemptsWhenKVFull(t *testing.T) {
	res := Run(Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 8192,
		KVTokensPerRank: 1000, BlockSize: 16, InputTokens: 100, OutputTokens: 400, Sessions: 8,
		Requests: 300, Warmup: 20, Seed: 1})
	if res.Preemptions == 0 {
		t.Fatal("expected preemptions")
	}
}

// Convergence check (documented in docs/calibration-throughput.md): the
// P99 TTFT of an open-loop run at ρ≈0.7 agrees within 5% between 50k and
// 100k measured requests.
func TestSimPercentilesConverge(t *testing.T) {
	run := func(n int) Result {
		return Run(Config{Step: func(l []perf.RankLoad) float64 { return 0.004 + 2e-6*l[0].PrefillTokens },
			DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 4096, InputTokens: 1000, OutputTokens: 20,
			ArrivalRatePerS: 20, Requests: n, Warmup: 1000, Seed: 11})
	}
	a, b := run(50000), run(100000)
	if math.Abs(a.TTFT.P99-b.TTFT.P99)/b.TTFT.P99 > 0.05 || math.Abs(a.TTFT.P50-b.TTFT.P50)/b.TTFT.P50 > 0.02 {
		t.Fatalf("not converged: %+v vs %+v", a.TTFT, b.TTFT)
	}
}

// A step model returning zero or infinity stops the run instead of spinning.
func TestSimStopsOnBrokenStep(t *testing.T) {
	for _, d := range []float64{0, math.Inf(1), math.NaN()} {
		res := Run(Config{Step: constStep(d), DP: 1, MaxNumSeqs: 4, MaxNumBatchedTokens: 1024,
			InputTokens: 10, OutputTokens: 10, Sessions: 2, Requests: 10, Seed: 1})
		if !res.Stalled {
			t.Fatalf("step %v: not stalled", d)
		}
	}
}

// TestSimTTFTQuantiles: the distribution agrees with the percentiles the
// run reports (same nearest-rank rule) and never decreases.
func TestSimTTFTQuantiles(t *testing.T) {
	res := Run(Config{Step: func([]perf.RankLoad) float64 { return 0.01 }, DP: 2, MaxNumSeqs: 8, MaxNumBatchedTokens: 512,
		InputTokens: 300, OutputTokens: 20, Sessions: 12, Requests: 400, Warmup: 50, Seed: 3, StaggerS: 0.5})
	q := res.TTFTQuantiles
	if res.Requests == 0 || q[0] <= 0 {
		t.Fatalf("no distribution: %+v", res)
	}
	if q[49] != res.TTFT.P50 || q[94] != res.TTFT.P95 || q[98] != res.TTFT.P99 {
		t.Errorf("quantiles p50 %g p95 %g p99 %g, percentiles %+v", q[49], q[94], q[98], res.TTFT)
	}
	for i := 1; i < len(q); i++ {
		if q[i] < q[i-1] {
			t.Fatalf("quantile %d (%g) below %d (%g)", i+1, q[i], i, q[i-1])
		}
	}
}

// A pool ends the closed loop: with 2 sessions and 3 requests, the third
// runs alone, so with a step that grows with the batch the run ends
// sooner than when the other session keeps sending.
func TestSimPoolEndsTheLoop(t *testing.T) {
	perSeq := func(l []perf.RankLoad) float64 { return 0.01 * (l[0].DecodeSeqs + l[0].PrefillSeqs) }
	cfg := Config{Step: perSeq, DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 8192, InputTokens: 10, OutputTokens: 10,
		Sessions: 2, Requests: 3, Seed: 1}
	open := Run(cfg)
	cfg.Pool = 3
	pooled := Run(cfg)
	if pooled.Requests != 3 {
		t.Fatalf("%d requests with a pool of 3", pooled.Requests)
	}
	// Two waves of 10 steps: the first at 2 sequences, the second at 1
	// with the pool and at 2 without.
	if math.Abs(pooled.SimulatedS-0.3) > 1e-9 || math.Abs(open.SimulatedS-0.4) > 1e-9 {
		t.Fatalf("simulated %.3f s with the pool, %.3f s without; want 0.300 and 0.400", pooled.SimulatedS, open.SimulatedS)
	}
}

// A request larger than the whole KV cache can never run: the run stops
// as stalled instead of stepping forever.
func TestSimStopsWhenNothingFits(t *testing.T) {
	for _, sessions := range []int{1, 3} {
		res := Run(Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 256,
			KVTokensPerRank: 1024, BlockSize: 16, InputTokens: 900, OutputTokens: 400, Sessions: sessions,
			Requests: 10, Seed: 1})
		if !res.Stalled {
			t.Fatalf("%d sessions: not stalled: %+v", sessions, res)
		}
	}
}

// A closed loop with think time: one session never queues (its next
// request comes a think time after the last token), and its rate is one
// request per cycle of TTFT + decode + the mean think time.
func TestSimClosedLoopThinkTime(t *testing.T) {
	const S, think = 0.01, 0.5
	res := Run(Config{Step: constStep(S), DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 8192,
		InputTokens: 100, OutputTokens: 10, Sessions: 1, Requests: 4000, Warmup: 10, Seed: 3, ThinkS: think})
	if res.TTFTParts.QueueS != 0 || math.Abs(res.TTFT.Mean-S) > 1e-9 {
		t.Errorf("one session with think time: queue %g s, TTFT %g s, want 0 and one step", res.TTFTParts.QueueS, res.TTFT.Mean)
	}
	cycle := 10*S + think // the prompt's step emits the first token, 9 more steps; think is the mean
	if want := 10 / cycle; math.Abs(res.OutputTokPerS-want)/want > 0.05 {
		t.Errorf("output %.2f tok/s, want %.2f (10 tokens per %.2f s cycle on average)", res.OutputTokPerS, want, cycle)
	}
	// Four sessions thinking for longer than the engine needs for all of
	// them queue no more than without think time, and send fewer requests.
	busy := Run(Config{Step: constStep(S), DP: 1, MaxNumSeqs: 1, MaxNumBatchedTokens: 8192,
		InputTokens: 100, OutputTokens: 10, Sessions: 4, Requests: 400, Warmup: 20, Seed: 3})
	idle := Run(Config{Step: constStep(S), DP: 1, MaxNumSeqs: 1, MaxNumBatchedTokens: 8192,
		InputTokens: 100, OutputTokens: 10, Sessions: 4, Requests: 400, Warmup: 20, Seed: 3, ThinkS: 1})
	if !(idle.TTFTParts.QueueS < busy.TTFTParts.QueueS && idle.OutputTokPerS < busy.OutputTokPerS) {
		t.Errorf("think time: queue %g s (without %g), %g tok/s (without %g)", idle.TTFTParts.QueueS, busy.TTFTParts.QueueS, idle.OutputTokPerS, busy.OutputTokPerS)
	}
}

// ThinkFixed: every think time is exactly ThinkS, so a lone session's
// finite run is deterministic — its length is its requests' cycles (one
// step to the first token, nine more, then the think time) less the last
// think, whatever the seed — while exponential think times make it vary
// with the seed. Sessions keep the phase the first round gave them: with
// one slot, four sessions of a finite run from t=0 queue behind each other
// in the first round (a staircase: 0, 1, 2, 3 requests' service) and come
// back one service apart, a conveyor that queues no more, as a benchmark's
// cohorts of fixed lengths do; exponential think times bunch them again.
func TestSimThinkFixed(t *testing.T) {
	const S, think = 0.01, 0.5
	run := func(fixed bool, seed uint64) Result {
		return Run(Config{Step: constStep(S), DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 8192,
			InputTokens: 100, OutputTokens: 10, Sessions: 1, Pool: 5, Seed: seed, ThinkS: think, ThinkFixed: fixed})
	}
	want := 5*10*S + 4*think
	for _, seed := range []uint64{1, 2, 3} {
		if got := run(true, seed).SimulatedS; math.Abs(got-want) > 1e-9 {
			t.Errorf("seed %d: fixed think: the run lasts %.6f s, want %.6f", seed, got, want)
		}
	}
	if a, b := run(false, 1).SimulatedS, run(false, 2).SimulatedS; a == b {
		t.Errorf("exponential think: the run lasts %.6f s for both seeds", a)
	}
	waves := func(fixed bool) Result {
		return Run(Config{Step: constStep(S), DP: 1, MaxNumSeqs: 1, MaxNumBatchedTokens: 8192,
			InputTokens: 100, OutputTokens: 10, Sessions: 4, Pool: 40, Seed: 1, ThinkS: 1, ThinkFixed: fixed})
	}
	// The first round's four wait 0, 10, 20 and 30 steps; the other 36 none.
	if got, want := waves(true).TTFTParts.QueueS, (0+10+20+30)*S/40; math.Abs(got-want) > 1e-9 {
		t.Errorf("fixed think: mean queue %.6f s, want %.6f (the first round's staircase only)", got, want)
	}
	if fixed, exp := waves(true).TTFTParts.QueueS, waves(false).TTFTParts.QueueS; exp <= fixed {
		t.Errorf("exponential think: mean queue %.6f s, not above the fixed think's %.6f", exp, fixed)
	}
}

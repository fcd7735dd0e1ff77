package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// mm1ish is a cheap open loop with a real queue: a prefill-heavy step on
// one rank, ρ ≈ 0.7.
func mm1ish(seed uint64, requests int) Config {
	return Config{Step: func(l []perf.RankLoad) float64 { return 0.004 + 2e-6*l[0].PrefillTokens },
		DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 4096, InputTokens: 1000, OutputTokens: 20,
		ArrivalRatePerS: 20, Requests: requests, Warmup: 200, Seed: seed}
}

// TestReplicateOneIsRun: one replication is the plain run, and the first
// of several replications is the plain run with its share of requests.
func TestReplicateOneIsRun(t *testing.T) {
	cfg := mm1ish(3, 2000)
	if a, b := Replicate(cfg, 1), Run(cfg); a != b {
		t.Fatalf("Replicate(cfg, 1) differs from Run(cfg)")
	}
	res := Replicate(cfg, 4)
	if res.Replications != 4 || res.Requests != 2000 {
		t.Fatalf("replications %d requests %d", res.Replications, res.Requests)
	}
	ci := res.TTFTCI.P99
	if !(ci.Lo < res.TTFT.P99 && res.TTFT.P99 < ci.Hi) {
		t.Fatalf("P99 %g outside its interval %+v", res.TTFT.P99, ci)
	}
}

// TestReplicateCoverage: the 95% interval of P50 and P99 TTFT contains the
// value a run 50 times longer finds in most of 20 independent trials, and
// narrows as the run grows.
func TestReplicateCoverage(t *testing.T) {
	truth := Run(mm1ish(999, 200000)).TTFT
	hit50, hit99 := 0, 0
	var width float64
	for seed := uint64(1); seed <= 20; seed++ {
		res := Replicate(mm1ish(seed*7919, 4000), 8)
		if c := res.TTFTCI.P50; c.Lo <= truth.P50 && truth.P50 <= c.Hi {
			hit50++
		}
		if c := res.TTFTCI.P99; c.Lo <= truth.P99 && truth.P99 <= c.Hi {
			hit99++
		}
		width += res.TTFTCI.P99.Hi - res.TTFTCI.P99.Lo
	}
	if hit50 < 15 || hit99 < 15 {
		t.Errorf("intervals contain the long-run P50 in %d and P99 in %d of 20 trials", hit50, hit99)
	}
	var longWidth float64
	for seed := uint64(1); seed <= 5; seed++ {
		c := Replicate(mm1ish(seed*104729, 16000), 8).TTFTCI.P99
		longWidth += c.Hi - c.Lo
	}
	if longWidth/5 > 0.75*width/20 { // 1/√4 expected
		t.Errorf("P99 interval %.5f s wide on average at 4x the requests, %.5f s before", longWidth/5, width/20)
	}
	if math.IsInf(studentT975(0), 1) == false || studentT975(7) != 2.365 || studentT975(100) != 1.96 {
		t.Error("studentT975")
	}
}

// TestReplicateWorkBudget: replications stop once their work passes the
// budget, but never below minReplications (ReplicationsMin for a full
// budget, down to 2 for a small share), and the budget is a count, so the
// same run stops at the same place.
func TestReplicateWorkBudget(t *testing.T) {
	if minReplications(0) != ReplicationsMin || minReplications(StepBudget) != ReplicationsMin ||
		minReplications(StepBudget/2) != 2 || minReplications(1) != 2 || minReplications(3*StepBudget/4) != 3 {
		t.Error("minReplications")
	}
	cfg := mm1ish(3, 32000)
	full := Replicate(cfg, 32)
	cfg.WorkBudget = int64(full.Steps) / 4 // a quarter of what 32 runs cost
	a, b := Replicate(cfg, 32), Replicate(cfg, 32)
	if a.Replications >= 32 || a.Replications < minReplications(cfg.WorkBudget) || a != b {
		t.Fatalf("%d replications (then %d) within a quarter of the work of 32", a.Replications, b.Replications)
	}
	// A budget of one step measures nothing in the first run: it takes
	// the whole budget (TestReplicateWidensUnmeasured), is the only run,
	// and still ends at its ceiling.
	cfg.WorkBudget = 1
	if r := Replicate(cfg, 32); r.Replications != 1 || !r.Truncated {
		t.Fatalf("%d replications (truncated %v) with a budget of one step", r.Replications, r.Truncated)
	}
}

// TestReplicateWorkShare: with a budget below what ReplicationsMin runs of
// the requested length cost, each run stops measuring at its share (but
// not before MinMeasured requests, unless that takes WorkCeiling shares),
// so the work stays near the budget and the runs measure fewer requests —
// the same ones every time.
func TestReplicateWorkShare(t *testing.T) {
	cfg := mm1ish(5, 8000) // 4 runs of 2000 requests
	full := Replicate(cfg, 4)
	if full.Requests != 8000 {
		t.Fatalf("unbudgeted: %d requests", full.Requests)
	}
	cfg.WorkBudget = int64(full.Steps) / 4 // a quarter of the work
	a, b := Replicate(cfg, 4), Replicate(cfg, 4)
	if a != b {
		t.Fatal("a budgeted replication is not deterministic")
	}
	reps := minReplications(cfg.WorkBudget)
	if a.Requests >= full.Requests/2 || a.Requests < reps*MinMeasured || a.Replications != reps {
		t.Fatalf("%d requests in %d runs within a quarter of the work of %d", a.Requests, a.Replications, full.Requests)
	}
	if a.Steps > full.Steps/2 || a.Truncated {
		t.Errorf("%d steps for a budget of %d (unbudgeted %d), truncated %v", a.Steps, cfg.WorkBudget, full.Steps, a.Truncated)
	}
	// Two runs reach MinMeasured in about 11,700 rank-steps together
	// (warm-up included, stepCallRankSteps each step): a budget of 6,400
	// does within WorkCeiling shares of 3,200; one of 400 does not, and
	// its runs end at the ceiling with what they measured.
	cfg.WorkBudget = 6400
	if r := Replicate(cfg, 4); r.Requests < 2*MinMeasured || r.Requests > 2*(MinMeasured+10) || r.Truncated {
		t.Errorf("a budget of 6,400 measured %d requests (truncated %v); want about %d", r.Requests, r.Truncated, 2*MinMeasured)
	}
	cfg.WorkBudget = 400
	r := Replicate(cfg, 4)
	if !r.Truncated || r.Requests >= MinMeasured || r.Requests == 0 || r.Replications != 2 {
		t.Errorf("a budget of 400: %d requests in %d runs, truncated %v; want the ceiling to end both runs early", r.Requests, r.Replications, r.Truncated)
	}
}

// TestReplicatePoolWhole: a finite run (Pool) is measured whole — its
// figures are of the whole run — unless its work ceiling ends it
// (Truncated); one that alone spends a replication's share is the only
// run.
func TestReplicatePoolWhole(t *testing.T) {
	cfg := mm1ish(7, 0)
	cfg.Pool, cfg.Requests = 3000, 3000
	free := Replicate(cfg, 4)
	if free.Replications != 4 || free.Requests != 4*cfg.Pool {
		t.Fatalf("unbudgeted: %d requests in %d runs, want 4 whole runs of %d", free.Requests, free.Replications, cfg.Pool)
	}
	// A budget a little over one run: the first run spends more than its
	// share (half the budget), ends within WorkCeiling shares, and leaves
	// too little for another.
	perRun := free.Work / 4
	cfg.WorkBudget = perRun + perRun/20
	one := Replicate(cfg, 4)
	if one.Replications != 1 || one.Requests != cfg.Pool || one.Truncated {
		t.Fatalf("a budget of 1.05 runs: %d requests in %d runs (truncated %v), want one whole run of %d", one.Requests, one.Replications, one.Truncated, cfg.Pool)
	}
	if one.TTFT != Run(cfg).TTFT {
		t.Error("the one budgeted run is not the plain run")
	}
	cfg.WorkBudget = 1
	if cut := Replicate(cfg, 4); !cut.Truncated || cut.Requests >= cfg.Pool || cut.Replications != 1 {
		t.Fatalf("a budget of one step: %d requests in %d runs (truncated %v), want one run its ceiling ended", cut.Requests, cut.Replications, cut.Truncated)
	}
}

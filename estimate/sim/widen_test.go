package sim

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestReplicateWidensUnmeasured: a closed loop of long requests completes
// its first turn only after a whole cycle of its sessions; when each
// replication's ceiling ends it before that, every replication measured
// nothing (qa43 F2: 2,048 sessions × 4,000 output tokens, 0 requests in 4
// runs). The first replication then takes the whole budget and is the
// only run: it measures requests, for no more work than the replications
// cut at their ceilings spent.
func TestReplicateWidensUnmeasured(t *testing.T) {
	cfg := Config{Step: func(l []perf.RankLoad) float64 { return 0.01 + 1e-6*l[0].PrefillTokens + 1e-5*l[0].DecodeSeqs },
		DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 2048, InputTokens: 100, OutputTokens: 1000,
		Sessions: 64, StaggerS: 10, Requests: 512, Warmup: 128, Seed: 1, WorkBudget: 10000}
	r := Replicate(cfg, 4)
	if r.Requests == 0 || r.Replications != 1 || r.Work > WorkCeiling*cfg.WorkBudget+100 {
		t.Fatalf("%d requests in %d runs for %d work (budget %d); want some, in one run, within %d", r.Requests, r.Replications, r.Work, cfg.WorkBudget, WorkCeiling*cfg.WorkBudget)
	}
	if !r.Truncated || r.TPOT.Mean < 0.01 || r.OutputTokPerS <= 0 {
		t.Errorf("truncated %v, TPOT %g, %g tokens/s: a run that measured fewer than MinMeasured is still cut short, with figures", r.Truncated, r.TPOT.Mean, r.OutputTokPerS)
	}
	// A run that measures within its own ceiling is not widened: the
	// replications stay.
	cfg.WorkBudget = 20000
	if r := Replicate(cfg, 4); r.Replications < 2 {
		t.Errorf("budget 20,000: %d runs; want the replications kept", r.Replications)
	}
}

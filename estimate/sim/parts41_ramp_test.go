package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// batchStep is a step that grows with the sequences it runs: base plus
// per for each decode or prefill chunk, as a memory-bound decode's does.
func batchStep(base, per float64) func([]perf.RankLoad) float64 {
	return func(loads []perf.RankLoad) float64 {
		n := 0.0
		for _, l := range loads {
			n += l.DecodeSeqs + l.PrefillSeqs
		}
		return base + per*n
	}
}

// rampLoop is a closed loop of 512 sessions staggered over one request's
// time at the full batch (as the P/D decode run staggers its sessions),
// on a step that grows with the batch, with a work budget whose half-share
// comes well before the stagger ends.
func rampLoop(budget int64) Config {
	const sessions, out = 512, 200
	step := batchStep(0.01, 0.001)
	return Config{Step: step, DP: 1, MaxNumSeqs: 1024, MaxNumBatchedTokens: 1 << 20, InputTokens: 100, OutputTokens: out,
		Sessions: sessions, StaggerS: out * step([]perf.RankLoad{{DecodeSeqs: sessions}}), Warmup: 2 * sessions, Requests: 1200,
		Seed: 3, WorkBudget: budget}
}

// Little's law inside one run: the simulator's per-request TPOT and its
// time averages describe the same load. Its mean step is its running
// sequences over its tokens per second (every running sequence decodes
// one token a step); its requests' TPOT is the mean step they rode; and
// rate × (TTFT + (out − 1) × TPOT) is its sessions. The P/D decode run of
// examples/deepseek-v3-pd-32xh20.yaml at 1,024 sessions broke all three:
// its work share cut the warm-up 736 s into its 954 s stagger, and it
// measured requests that had ridden the ramp's small, fast batches (TPOT
// 0.671 s) in a window still missing the sessions to come (981 running,
// 0.912 s a step at 1,072 tokens/s): Little's law −29.6%. Here the share's
// half comes inside the stagger as well: cut there, the run measured a
// TPOT of 393 ms against a 509 ms mean step with 500 of the 512 sessions
// running (Little's law −24.7%); the warm-up now waits for the loop to
// have filled and turned over (rampOver), and all three agree within 2%.
func TestLittleInsideARampedRun(t *testing.T) {
	cfg := rampLoop(150_000)
	res := Replicate(cfg, 3)
	if res.Requests == 0 || res.Truncated {
		t.Fatalf("measured %d requests (truncated %v)", res.Requests, res.Truncated)
	}
	rate := res.OutputTokPerS / float64(cfg.OutputTokens)
	little := rate*(res.TTFT.Mean+float64(cfg.OutputTokens-1)*res.TPOT.Mean)/float64(cfg.Sessions) - 1
	stepFromAverages := res.MeanRunning / res.OutputTokPerS
	t.Logf("%d requests in %d runs: TPOT %.1f ms, mean step %.1f ms, running/(tokens/s) %.1f ms, %.1f running, Little's law %+.2f%%",
		res.Requests, res.Replications, 1e3*res.TPOT.Mean, 1e3*res.MeanStepS, 1e3*stepFromAverages, res.MeanRunning, 100*little)
	if math.Abs(little) > 0.02 {
		t.Errorf("Little's law %+.1f%% of %d sessions (rate %.3f/s, TTFT %.3f s, TPOT %.1f ms)", 100*little, cfg.Sessions, rate, res.TTFT.Mean, 1e3*res.TPOT.Mean)
	}
	if math.Abs(res.TPOT.Mean/stepFromAverages-1) > 0.02 || math.Abs(res.TPOT.Mean/res.MeanStepS-1) > 0.02 {
		t.Errorf("TPOT %.1f ms, time averages' step %.1f ms (running ÷ tokens/s), mean step %.1f ms: want the same within 2%%",
			1e3*res.TPOT.Mean, 1e3*stepFromAverages, 1e3*res.MeanStepS)
	}
	if res.MeanRunning < 0.98*float64(cfg.Sessions) {
		t.Errorf("%.1f running of %d sessions that never leave the engine", res.MeanRunning, cfg.Sessions)
	}
}

// rampOver is false while the first requests are still due, and while a
// request of the ramp still runs; true once every request in the engine
// came after it, and always for open loops, finite runs and loops started
// at once.
func TestRampOver(t *testing.T) {
	cfg := rampLoop(150_000)
	s := newSimulator(cfg)
	s.now = cfg.StaggerS / 2
	if s.rampOver() {
		t.Error("over halfway through the stagger")
	}
	s.now = cfg.StaggerS + 1
	s.ranks[0].running = []simReq{{arrival: cfg.StaggerS + 0.5}, {arrival: cfg.StaggerS / 3}}
	if s.rampOver() {
		t.Error("over while a request that arrived in the stagger runs")
	}
	s.ranks[0].running = s.ranks[0].running[:1]
	s.ranks[0].waiting = []simReq{{arrival: 1}}
	if s.rampOver() {
		t.Error("over while a request that arrived in the stagger waits")
	}
	s.ranks[0].waiting = nil
	if !s.rampOver() {
		t.Error("not over once every request came after the stagger")
	}
	for name, c := range map[string]Config{"open loop": {Step: cfg.Step, DP: 1, MaxNumSeqs: 8, InputTokens: 10, OutputTokens: 10, ArrivalRatePerS: 1, StaggerS: 100},
		"finite run":  {Step: cfg.Step, DP: 1, MaxNumSeqs: 8, InputTokens: 10, OutputTokens: 10, Sessions: 4, Pool: 8, StaggerS: 100},
		"all at once": {Step: cfg.Step, DP: 1, MaxNumSeqs: 8, InputTokens: 10, OutputTokens: 10, Sessions: 4}} {
		if !newSimulator(c).rampOver() {
			t.Errorf("%s: not over at t = 0", name)
		}
	}
}

package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestStepTraceCountsAppliedSteps checks that Config.Trace sees each applied
// step once: with steady segments coalesced (a burst of long decodes) its
// step counts add up to Result.Steps and its durations to the busy time,
// while a wrapper around Config.Step sees a different number of
// evaluations (the segments' integration points).
func TestStepTraceCountsAppliedSteps(t *testing.T) {
	var traced, evals int
	var busy float64
	step := func(l []perf.RankLoad) float64 {
		evals++
		return 0.001 + 1e-6*l[0].DecodeSeqs + 1e-8*l[0].DecodeCtx + 1e-6*l[0].PrefillTokens
	}
	cfg := Config{Step: step, DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 512, InputTokens: 300, OutputTokens: 200,
		Sessions: 100, Pool: 100, Seed: 3}
	cfg.Trace = func(l []perf.RankLoad, n int, s float64) {
		if n < 1 || !(s > 0) || len(l) != 1 {
			t.Fatalf("trace: %d steps of %g s over %d ranks", n, s, len(l))
		}
		traced += n
		busy += s
	}
	res := Run(cfg)
	if res.Steps == 0 || traced != res.Steps {
		t.Errorf("trace counted %d steps, the result %d", traced, res.Steps)
	}
	if evals == traced {
		t.Errorf("the step model was evaluated %d times, as many as the applied steps: no segment was coalesced, the test proves nothing", evals)
	}
	if d := busy / float64(traced); math.Abs(d-res.MeanStepS) > 1e-9*d {
		t.Errorf("traced mean step %.6g s, result %.6g s", d, res.MeanStepS)
	}
}

package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// runBoth runs cfg step by step and with steady segments, counting the
// step-model calls of each.
func runBoth(t *testing.T, cfg Config) (exact, fast Result, exactCalls, fastCalls int) {
	t.Helper()
	step := cfg.Step
	calls := 0
	cfg.Step = func(l []perf.RankLoad) float64 { calls++; return step(l) }
	coalesce = false
	exact, exactCalls = Run(cfg), calls
	coalesce, calls = true, 0
	fast, fastCalls = Run(cfg), calls
	return
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(math.Abs(b), 1e-12) }

// TestSteadySegmentsMatchStepping: applying steady segments at once gives
// what stepping through them gives (the same events in the same order;
// durations integrated instead of summed) for closed and open loops,
// chunked long prompts, a KV cache that forces preemption and a warm-up,
// on the full step model and on a context-dependent stub, with far fewer
// step-model calls.
func TestSteadySegmentsMatchStepping(t *testing.T) {
	ref := refSimConfig(t, 2000)
	ctxStep := func(l []perf.RankLoad) float64 {
		var ctx, tok float64
		for _, x := range l {
			ctx = max(ctx, x.DecodeCtx+x.PrefillPairs/1000)
			tok = max(tok, x.DecodeSeqs+x.PrefillTokens)
		}
		return 0.004 + 1e-8*ctx + 2e-6*tok
	}
	// fewer is how many times fewer step-model calls segments must take:
	// few events per step (decode-heavy closed loops, long prompts) gain
	// most; arrivals and preemptions are events of their own.
	cases := map[string]struct {
		cfg   Config
		fewer int
	}{
		"reference closed loop": {ref, 10},
		"reference, KV-limited": {func() Config { c := ref; c.KVTokensPerRank, c.BlockSize = 4096, 64; return c }(), 2},
		"open loop":             {Config{Step: ctxStep, DP: 4, MaxNumSeqs: 32, MaxNumBatchedTokens: 2048, InputTokens: 3000, OutputTokens: 800, ArrivalRatePerS: 2, Requests: 1500, Warmup: 100, Seed: 5}, 3},
		"long prompt, chunked":  {Config{Step: ctxStep, DP: 2, MaxNumSeqs: 8, MaxNumBatchedTokens: 512, InputTokens: 40000, OutputTokens: 300, Sessions: 6, Requests: 300, Warmup: 20, Seed: 2, StaggerS: 1}, 10},
		"preempting":            {Config{Step: ctxStep, DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 8192, KVTokensPerRank: 3000, BlockSize: 16, InputTokens: 100, OutputTokens: 900, Sessions: 8, Requests: 300, Warmup: 20, Seed: 1}, 5},
		// A hybrid's cost (state pages, a window, 544-token blocks): the
		// segments' KV fit reads the same cost the steps do.
		"preempting, per-sequence cost": {Config{Step: ctxStep, DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 8192, KVTokensPerRank: 3000, BlockSize: 16,
			KV:          KVCost{Fixed: 40, TokenBytes: 1, Terms: []KVTerm{{Bytes: 16, Block: 16}, {Bytes: 100, Block: 544}, {Bytes: 8, Block: 16, Cap: 200}}},
			InputTokens: 100, OutputTokens: 900, Sessions: 8, Requests: 300, Warmup: 20, Seed: 1}, 3},
	}
	// Speculative decoding draws each step's accepted drafts: segments
	// draw them in another order (and long ones as one normal draw), so
	// the runs agree in distribution, not request by request.
	spec := Config{Step: ctxStep, DP: 2, MaxNumSeqs: 16, MaxNumBatchedTokens: 4096, InputTokens: 500, OutputTokens: 2000,
		Sessions: 16, Requests: 2000, Warmup: 100, Seed: 4, StaggerS: 1, Spec: Speculation{Drafts: 2, Accept: 0.8}}
	t.Run("speculative", func(t *testing.T) {
		a, b, ca, cb := runBoth(t, spec)
		for _, p := range [][2]float64{{a.TPOT.Mean, b.TPOT.Mean}, {a.OutputTokPerS, b.OutputTokPerS}, {a.E2E.P50, b.E2E.P50}} {
			if !near(p[1], p[0], 0.02) {
				t.Errorf("stepping %v, segments %v", p[0], p[1])
			}
		}
		if cb*5 > ca {
			t.Errorf("segments called the step model %d times, stepping %d", cb, ca)
		}
	})
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			a, b, ca, cb := runBoth(t, c.cfg)
			if a.Requests != b.Requests || a.Preemptions != b.Preemptions || a.Steps != b.Steps {
				t.Fatalf("events differ: requests %d/%d preemptions %d/%d steps %d/%d", a.Requests, b.Requests, a.Preemptions, b.Preemptions, a.Steps, b.Steps)
			}
			for _, p := range [][2]float64{{a.TTFT.P50, b.TTFT.P50}, {a.TTFT.P99, b.TTFT.P99}, {a.TPOT.P50, b.TPOT.P50}, {a.E2E.P99, b.E2E.P99},
				{a.OutputTokPerS, b.OutputTokPerS}, {a.MeanRunning, b.MeanRunning}} {
				if !near(p[1], p[0], 1e-4) {
					t.Errorf("stepping %v, segments %v\n%+v\n%+v", p[0], p[1], a, b)
				}
			}
			if cb*c.fewer > ca {
				t.Errorf("segments called the step model %d times, stepping %d", cb, ca)
			}
			t.Logf("step-model calls: %d stepping, %d with segments", ca, cb)
		})
	}
}

// TestSteadySegmentsBoundLongOutputs: a request of millions of output
// tokens costs a few step-model calls per event, not one per token.
func TestSteadySegmentsBoundLongOutputs(t *testing.T) {
	for _, out := range []int{1 << 10, 1 << 20, 1 << 24} {
		calls := 0
		cfg := Config{Step: func(l []perf.RankLoad) float64 { calls++; return 0.01 + 1e-9*l[0].DecodeCtx }, DP: 1, MaxNumSeqs: 4,
			MaxNumBatchedTokens: 8192, InputTokens: 1000, OutputTokens: out, Sessions: 4, Requests: 20, Warmup: 4, Seed: 1, StaggerS: 0.1}
		res := Run(cfg)
		if res.Requests != 20 || calls > 20000 {
			t.Errorf("%d output tokens: %d requests, %d step-model calls", out, res.Requests, calls)
		}
		t.Log(fmt.Sprintf("%d output tokens: %d calls", out, calls))
	}
}

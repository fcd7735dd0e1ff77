package calibrate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/validate"
)

// TestOpenLoopReplayedAsFiniteRun (QA realin40 #2): the 09-reasoning
// report is 50 prompts of ~4186 output tokens sent at 0.2/s — arrivals
// over ~250 s, then a drain; 225.57 tok/s is 209,303 tokens over the
// 927.90 s the whole run took. Replayed as a steady open loop (arrivals
// never stopping) it predicted 370 tok/s with a median TPOT of 667 ms:
// 370 × 0.667 ≈ 247 requests in flight, five times the 50 the run ever
// had. The finite run's prediction cannot exceed what its requests can
// deliver: at most 50 in flight, each no faster than its TPOT.
func TestOpenLoopReplayedAsFiniteRun(t *testing.T) {
	rs, err := bench.ReadFile(filepath.Join("..", "bench", "testdata", "gb10-nemotron3nano-09-reasoning.md"))
	if err != nil || len(rs) != 1 {
		t.Fatal(err, len(rs))
	}
	r := &rs[0]
	dep, ds, err := validate.File("testdata/nemotron3nano-gb10-office.yaml")
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v", err, ds)
	}
	in := input.FromResolved(dep)
	p, err := newReplay(in, r)
	if err != nil {
		t.Fatal(err)
	}
	if p.cfg.Pool != 50 || p.in.Workload.BurstRequests != 50 {
		t.Fatalf("replayed pool %d (burst_requests %d), want the run's 50 prompts", p.cfg.Pool, p.in.Workload.BurstRequests)
	}
	res := p.run(perf.ConstantsFor(&in))
	inFlight := res.OutputTokPerS * res.TPOT.P50 // tokens/s × s/token per request
	if inFlight > 50 || res.Requests != 50 {
		t.Errorf("predicted %.1f tok/s at a median TPOT of %.0f ms: %.0f requests in flight, more than the run's 50 (%d simulated)",
			res.OutputTokPerS, res.TPOT.P50*1e3, inFlight, res.Requests)
	}
}

// TestShapeTextSpreads: the report says where a replay's length spread
// comes from — a ShareGPT run's log-normal default (printed as "×0.00–0.00"
// before: a log-normal spread has no uniform bounds), a random dataset's
// range ratio read from the client (not "saved per-request lengths"), the
// saved lengths.
func TestShapeTextSpreads(t *testing.T) {
	for _, c := range []struct {
		shape     bench.Shape
		want, not string
	}{
		{bench.Shape{InputTokens: 234, OutputTokens: 206, Dataset: "sharegpt"}, "log-normal around the means (σ 0.8, the sharegpt default", "×0.00"},
		{bench.Shape{InputTokens: 4080, OutputTokens: 485, InputCV: 0.52, InputCVKnown: true, CVFromRatio: true}, "range ratio; per-request lengths not saved", "saved per-request"},
		{bench.Shape{InputTokens: 4080, OutputTokens: 485, InputCV: 0.52, InputCVKnown: true}, "from the saved per-request lengths", "range ratio"},
	} {
		got := shapeText(c.shape)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("shapeText(%+v) = %q, want %q and not %q", c.shape, got, c.want, c.not)
		}
	}
}

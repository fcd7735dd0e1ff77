package pd

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
)

// TestBoundsAreOptimistic: Bounds never promises less than Evaluate
// delivers — throughput at or above the simulated, TPOT and every TTFT
// percentile at or below — on the P/D example and with either pool
// shrunk (each pool binding in turn).
func TestBoundsAreOptimistic(t *testing.T) {
	for name, edit := range map[string]func(*spec.Deployment){"as is": nil, "small prefill": resize(spec.RolePrefill), "small decode": resize(spec.RoleDecode)} {
		d := testinput.ExampleSpec(t, pdExample)
		if edit != nil {
			edit(d)
		}
		in, ds := input.FromSpec(d)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		pre, dec := testinput.Pools(t, in.Resolved())
		b := Bounds(&pre, &dec, false, "")
		r, _ := Evaluate(&pre, &dec, false, "", slo.Options{Seed: 1})
		for _, sc := range r.Scenarios {
			if sc.InputTokens == dec.Workload.InputTokens && sc.OutputTokPerS > b.OutputTokPerS {
				t.Errorf("%s: simulated %.1f output tokens/s above the bound's %.1f", name, sc.OutputTokPerS, b.OutputTokPerS)
			}
			if sc.TPOT.Mean < b.TPOTS {
				t.Errorf("%s: simulated TPOT %.4f s below the bound's %.4f", name, sc.TPOT.Mean, b.TPOTS)
			}
			if f := b.TTFTS[sc.InputTokens]; !sc.Unbounded && (f <= 0 || sc.TTFT.P50 < f) {
				t.Errorf("%s: input %d: simulated TTFT p50 %.4f s below the floor %.4f", name, sc.InputTokens, sc.TTFT.P50, f)
			}
		}
		if b.RequestsPerS <= 0 || b.Binding == "" {
			t.Errorf("%s: bound %+v", name, b)
		}
	}
}

package sim_test

import (
	"math"
	"os"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/vllm"
)

// The P/D finding this package's warm-up fix answers (rampOver), end to
// end: examples/deepseek-v3-pd-32xh20.yaml at 1,024 sessions is bound by
// its decode run, which holds every session; Little's law, rate × (TTFT +
// (out − 1) × TPOT) = sessions, missed by −29.6% when that run measured
// requests from its ramp (TPOT 0.671 s against a 0.912 s mean step). It
// holds within 3% at 1,024 sessions and at the spec's own 200.
func TestPDDecodeRunHoldsLittle(t *testing.T) {
	const file = "../../examples/deepseek-v3-pd-32xh20.yaml"
	y, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{200, 1024} {
		in := testinput.FromYAML(t, file, string(y))
		d := in.Resolved()
		pre, dec := testinput.Pools(t, d)
		pre.Workload.Concurrency, dec.Workload.Concurrency = n, n
		h := vllm.KVHandoffOf(d.PD.Connector.Name, dec.Release().Version, nil, dec.Env)
		r, _ := pd.EvaluateConnector(&pre, &dec, d.PD.SameNode(), d.PD.Router.Kind, h, slo.Options{Seed: 1})
		if len(r.Scenarios) == 0 {
			t.Fatalf("%d sessions: no scenario", n)
		}
		s := r.Scenarios[0]
		if s.Unbounded || s.RequestsPerS <= 0 || s.Sessions != n {
			t.Fatalf("%d sessions: %d sessions, %.3f requests/s, unbounded %v", n, s.Sessions, s.RequestsPerS, s.Unbounded)
		}
		held := s.RequestsPerS*(s.TTFT.Mean+float64(s.OutputTokens-1)*s.TPOT.Mean)/float64(n) - 1
		t.Logf("%d sessions: %.4f requests/s, TTFT %.3f s, TPOT %.1f ms, bound by the %s: Little's law %+.2f%%", n, s.RequestsPerS, s.TTFT.Mean, 1e3*s.TPOT.Mean, s.Binding, 100*held)
		if math.Abs(held) > 0.03 {
			t.Errorf("%d sessions: Little's law %+.1f%%, beyond ±3%%", n, 100*held)
		}
	}
}

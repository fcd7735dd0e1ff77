package slo

import (
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestLengthDistributionsOpenTheTails is issue #27's report complaint:
// fixed lengths collapse the tails (TTFT p50 ≈ p99); a stated distribution
// keeps the means and spreads the percentiles, and the scenario says which
// distribution it drew from.
func TestLengthDistributionsOpenTheTails(t *testing.T) {
	const q = "../../examples/qwen3-30b-a3b-1xh100.yaml"
	opt := Options{Seed: 1, Requests: 2000}
	for _, c := range []struct {
		name   string
		l      *spec.Lengths
		spread bool
	}{
		{"fixed", nil, false},
		{"sharegpt", &spec.Lengths{Dataset: "sharegpt"}, true},
		{"lognormal", &spec.Lengths{Distribution: "lognormal", CV: 1}, true},
		{"uniform", &spec.Lengths{Distribution: "uniform", CV: 0.5}, true},
	} {
		in := adviceInput(t, q, func(d *spec.Deployment) {
			d.Workload.Lengths = c.l
			d.Workload.InputTokens, d.Workload.OutputTokens = 300, 200
			d.SLO.TTFT = nil
			// Synchronous scheduling: under async scheduling (0.22's
			// default) a request handed over while a step runs starts
			// a step later than one that finds the engine idle, which
			// spreads even fixed lengths' TTFT by a step; this test is
			// about the lengths.
			d.VLLM.ExtraArgs = append(d.VLLM.ExtraArgs, "--no-async-scheduling")
		})
		r := check(&in, opt)
		if len(r.Performance.Simulations) == 0 {
			t.Fatalf("%s: no simulation", c.name)
		}
		s := r.Performance.Simulations[0]
		ttft := s.Result.TTFT
		// Fixed lengths leave a narrow tail, not none: sessions whose
		// requests reach the engine in the same step share a prefill step,
		// and in a closed loop of equal requests keep doing so (p99/p50
		// 1.20 here; 1.10 while the front end still split such arrivals
		// over steps); a spread opens it further (1.24–1.63).
		open := ttft.P99 > 1.2*ttft.P50
		if !c.spread {
			open = ttft.P99 > 1.25*ttft.P50
		}
		if open != c.spread || (s.Lengths != "") != c.spread {
			t.Errorf("%s: TTFT p50 %.1f ms, p99 %.1f ms, lengths %q: want the tail open = %v", c.name, 1e3*ttft.P50, 1e3*ttft.P99, s.Lengths, c.spread)
		}
	}
}

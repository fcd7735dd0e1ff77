package slo

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/spec"
)

// TestBackendAdviceHoldsWhenApplied is issue #27's loop: a suggested
// backend, applied to the spec, must be predicted faster by the same check,
// and that check must not suggest the original backend back.
func TestBackendAdviceHoldsWhenApplied(t *testing.T) {
	const ref = "../../examples/deepseek-v3-32xh20.yaml"
	opt := Options{Seed: 1, Requests: 200}
	in := adviceInput(t, ref, nil)
	r := check(&in, opt)
	if len(r.Findings) != 1 {
		t.Fatalf("the reference scenario should get one backend suggestion, got %v", r.Findings)
	}
	to := strings.TrimPrefix(r.Findings[0].Hint, "set vllm.all2all_backend: ")
	applied := adviceInput(t, ref, func(d *spec.Deployment) { d.VLLM.All2AllBackend = to })
	r2 := check(&applied, opt)
	if got, was := r2.Performance.Decode.Point.OutputTokPerS, r.Performance.Decode.Point.OutputTokPerS; got < (1+MaterialGain)*was {
		t.Errorf("applied %s: %.0f output tokens/s against %.0f before", to, got, was)
	}
	for _, f := range r2.Findings {
		if f.Code == CodeFasterAll2All && strings.HasSuffix(f.Hint, in.All2AllBackend) {
			t.Errorf("applying %s suggests %s back: %s", to, in.All2AllBackend, f.Message)
		}
	}
}

// TestBackendAdviceIsVerified: an alternative the what-if table rates far
// faster, but which the deployment re-resolved with that backend does not
// serve faster, is not suggested.
func TestBackendAdviceIsVerified(t *testing.T) {
	opt := Options{Seed: 1, Requests: 200}
	in := adviceInput(t, "../../examples/deepseek-v3-32xh20.yaml", func(d *spec.Deployment) {
		d.VLLM.All2AllBackend = "allgather_reducescatter"
	})
	r := check(&in, opt)
	p := *r.Performance
	p.Alternatives = nil
	for _, a := range r.Performance.Alternatives {
		if a.backendOnly == "deepep_low_latency" {
			a.OutputTokPerS *= 10
			a.IdleTTFTS = map[int]float64{}
			for n := range r.Performance.Alternatives[0].IdleTTFTS {
				a.IdleTTFTS[n] = 1e-3
			}
			p.Alternatives = append(p.Alternatives, a)
		}
	}
	if len(p.Alternatives) != 1 {
		t.Fatal("no deepep_low_latency alternative")
	}
	if ds := backendAdvice(&in, &p, opt); len(ds) != 0 {
		t.Errorf("a suggestion the re-resolved deployment does not confirm was made: %v", ds)
	}
	if _, ok := withBackend(&input.Input{Model: in.Model, GPU: in.GPU}, "deepep_low_latency"); ok {
		t.Error("a hand-built input (no spec) cannot be re-resolved, so it gets no suggestion")
	}
}

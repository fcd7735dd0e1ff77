package slo

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/resolve"
)

// verifyBackend re-resolves the deployment with all-to-all backend b (its
// spec with vllm.all2all_backend: b, so CUDA graphs, DBO, buffers and the
// API servers are decided again as `generate` would write them), runs the
// memory model and Predict on it as on the deployment itself, and confirms
// the gain: steady decode at least MaterialGain faster, every simulated
// scenario's output throughput no lower and its TTFT P99 no later. It
// returns what the simulation says, for the finding, and false when any of
// that fails or the deployment cannot be re-resolved (a hand-built input):
// no suggestion without the check.
func verifyBackend(in *input.Input, p *Performance, b string, opt Options) (string, bool) {
	alt, ok := withBackend(in, b)
	if !ok {
		return "", false
	}
	return verifyVariant(in, p, alt, opt)
}

// verifyVariant runs the memory model and Predict on alt as on in and
// confirms alt serves in's workload at least MaterialGain faster in steady
// decode with no simulated scenario slower or with a later TTFT P99.
func verifyVariant(in *input.Input, p *Performance, alt input.Input, opt Options) (string, bool) {
	m := memory.Estimate(&alt)
	if !m.Capacity.Fits && memory.Estimate(in).Capacity.Fits {
		return "", false
	}
	opt.NoAdvice = true
	q := Predict(&alt, kvOf(&m), opt).Performance
	if q.Decode.Point.OutputTokPerS < (1+MaterialGain)*p.Decode.Point.OutputTokPerS || len(q.Simulations) != len(p.Simulations) {
		return "", false
	}
	for i, s := range p.Simulations {
		r := q.Simulations[i].Result
		if r.OutputTokPerS < s.Result.OutputTokPerS || r.TTFT.P99 > s.Result.TTFT.P99 {
			return "", false
		}
	}
	if len(p.Simulations) == 0 {
		return "checked with the steady-decode model (no simulation: nothing fits)", true
	}
	s, r := p.Simulations[0].Result, q.Simulations[0].Result
	return fmt.Sprintf("the deployment re-resolved with it simulates %.0f output tokens/s and TTFT P99 %s at %d input tokens, against %.0f and %s now",
		r.OutputTokPerS, textfmt.Seconds(r.TTFT.P99), p.Simulations[0].InputTokens, s.OutputTokPerS, textfmt.Seconds(s.TTFT.P99)), true
}

// withBackend is in's deployment resolved again with all2all backend b.
func withBackend(in *input.Input, b string) (input.Input, bool) {
	d := in.Resolved()
	if d == nil || d.Spec == nil {
		return input.Input{}, false
	}
	s := *d.Spec
	s.VLLM.All2AllBackend = b
	r, err := resolve.FromSpec(&s)
	if err != nil {
		return input.Input{}, false
	}
	alt := input.FromResolved(r)
	if alt.All2AllBackend != b {
		return input.Input{}, false
	}
	return alt, true
}

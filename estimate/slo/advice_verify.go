package slo

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
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

// verifyVariant runs the memory model, the step model and the simulation
// on alt as on in and confirms alt serves in's workload at least
// MaterialGain faster in steady decode, and that its simulation of the
// workload's own scenario (the first: the workload's prompt length) is
// not slower nor with a later TTFT P99. One scenario, not every SLO
// length: a second full check per suggestion tripled check's time on the
// reference (0.16 -> 0.43 s), and the other lengths share the workload's
// load and batches.
func verifyVariant(in *input.Input, p *Performance, alt input.Input, opt Options) (string, bool) {
	m := memory.Estimate(&alt)
	if !m.Capacity.Fits && memory.Estimate(in).Capacity.Fits {
		return "", false
	}
	opt.NoAdvice, opt.kv = true, seqCostOf(&m)
	sm := perf.NewStepModel(perf.SetupFromInput(&alt))
	kv := kvOf(&m)
	at := alt // steady decode at the concurrency the verdict's used (open loops: the simulated mean)
	at.Workload.Concurrency = max(1, p.Decode.Concurrency)
	d := sm.DecodeInfo(&at, kvSeqsOf(&alt, &m))
	if d.Point.OutputTokPerS < (1+MaterialGain)*p.Decode.Point.OutputTokPerS {
		return "", false
	}
	if len(p.Simulations) == 0 || kv <= 0 {
		return "checked with the steady-decode model (no simulation: nothing fits)", len(p.Simulations) == 0
	}
	s := p.Simulations[0]
	// A third of the work budget the verdict's own scenario got
	// (simulateScenarios): the run follows check's, after it, on one core,
	// and a variant that holds more sequences costs more per step (the
	// reference's all-gather variant alone took 0.2 s at the full share,
	// against 0.3 s for all of check). A shorter run is noisier, which
	// can only withhold a close suggestion, never make one.
	opt.workBudget = sim.StepBudget * fullScenarios / int64(max(fullScenarios, len(p.Simulations))) / verifyBudgetDivisor
	// A quarter of the verdict's runs, each as long as one of them (the
	// runs, not their length, are cut: a short run reads an optimistic
	// start).
	if n := s.Result.Replications; n >= 4 && s.Result.Requests > 0 {
		opt.Replications = n / 4
		opt.Requests = s.Result.Requests / n * opt.Replications
	}
	r := simulateScenario(&alt, sm, kv, s.InputTokens, opt).Result
	if r.OutputTokPerS < s.Result.OutputTokPerS || r.TTFT.P99 > s.Result.TTFT.P99 {
		return "", false
	}
	return fmt.Sprintf("the deployment re-resolved with it simulates %.0f output tokens/s and TTFT P99 %s at %d input tokens, against %.0f and %s now",
		r.OutputTokPerS, textfmt.Seconds(r.TTFT.P99), s.InputTokens, s.Result.OutputTokPerS, textfmt.Seconds(s.Result.TTFT.P99)), true
}

// verifyBudgetDivisor is how much less simulation work a verification run
// gets than a scenario of check.
const verifyBudgetDivisor = 3

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

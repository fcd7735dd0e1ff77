package calibrate

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
)

// maxSimRequests caps the prompts of the finite run one replay simulates:
// a closed loop of c sessions is replayed with at least 32 waves of c
// requests (and at least 200), which holds its start-up, steady state and
// drain (the last wave's drain weighs at most 1/32 of the run where the
// real one weighs less); more only costs time, which the fit pays over a
// thousand times. A burst is replayed whole (its queue is the
// measurement), and so is an open loop (Poisson, gamma, capped) of up to
// 2,000 requests. A run cut to its first prompts says so (cutNote).
func maxSimRequests(l bench.Load) int {
	switch l.Kind {
	case bench.LoadClosedLoop:
		return max(200, 32*l.Concurrency)
	case bench.LoadPoisson, bench.LoadGamma, bench.LoadCapped:
		return 2000
	}
	return math.MaxInt
}

// cutNote says that a replay simulates fewer prompts than the run sent
// ("" when it simulates them all).
func cutNote(p *replay, l bench.Load) string {
	if p == nil || p.pd != nil || p.cfg.Pool >= l.Prompts {
		return ""
	}
	return fmt.Sprintf("replayed as a finite run of its first %d of %d prompts (a bound on the fit's time): the drain of the last requests weighs more in it than in the run", p.cfg.Pool, l.Prompts)
}

// finiteWorkload is the result's load as the spec's finite run of n
// requests (workload.burst_requests n, a benchmark's --num-prompts): a
// closed loop's sessions (workload.concurrency), a burst's n requests at
// once, or the arrivals at the run's rate (workload.arrival_rate_per_s,
// its burstiness, the client's cap). check simulates such a workload as
// the run it is (slo.FiniteRun): the arrivals stop after n requests, the
// run ends when the last one completes, and its throughput is every output
// token over the whole run, as the clients compute theirs (total output
// tokens ÷ the benchmark's duration).
func finiteWorkload(w spec.Workload, l bench.Load, n int) spec.Workload {
	w.Concurrency, w.ArrivalRatePerS, w.ArrivalBurstiness, w.ClientMaxConcurrency = 0, 0, 0, 0
	w.BurstRequests = n
	switch l.Kind {
	case bench.LoadClosedLoop:
		w.Concurrency = l.Concurrency
	case bench.LoadPoisson, bench.LoadGamma:
		w.ArrivalRatePerS, w.ArrivalBurstiness = l.RatePerS, l.Burstiness
	case bench.LoadCapped:
		// Concurrency only sizes the memory report here, as before: a
		// workload with an arrival rate is simulated from the rate.
		w.ArrivalRatePerS, w.ArrivalBurstiness, w.ClientMaxConcurrency, w.Concurrency = l.RatePerS, l.Burstiness, l.Concurrency, l.Concurrency
	}
	return w
}

// replay is one benchmark result set up for simulation on the deployment.
type replay struct {
	in       input.Input // the deployment with the result's workload
	kvTokens int64
	cfg      sim.Config // Step filled per evaluation
	// pd, when set, replays the result on a P/D deployment through the P/D
	// model (pd.go) instead.
	pd *pdReplay
}

// newReplay prepares the simulation of r on the deployment in, or says why
// r cannot be replayed there.
func newReplay(in input.Input, r *bench.Result) (*replay, error) {
	if r.Load.Kind == bench.LoadOther {
		return nil, fmt.Errorf("%s", r.Load)
	}
	if r.SpecAcceptance > 0 {
		if in.Speculative == nil {
			return nil, fmt.Errorf("speculative decoding ran (acceptance length %.2f), but the spec does not enable it (vllm.speculative)", r.SpecAcceptance)
		}
		in.Speculative = in.Speculative.WithAcceptance(r.SpecAcceptance, "the benchmark result's acceptance length")
	}
	inTok, outTok := int(math.Round(r.Shape.InputTokens)), int(math.Round(r.Shape.OutputTokens))
	if inTok < 1 || outTok < 1 {
		return nil, fmt.Errorf("requests of %d input and %d output tokens cannot be simulated", inTok, outTok)
	}
	if in.MaxModelLen > 0 && inTok+outTok > in.MaxModelLen {
		return nil, fmt.Errorf("requests of %d + %d tokens exceed the spec's max_model_len %d", inTok, outTok, in.MaxModelLen)
	}
	n := min(r.Load.Prompts, maxSimRequests(r.Load))
	if n < 1 {
		return nil, fmt.Errorf("the run records no prompts sent")
	}
	in.Workload = finiteWorkload(in.Workload, r.Load, n)
	in.Workload.InputTokens, in.Workload.OutputTokens = inTok, outTok
	mem := estimate.Memory(&in)
	if mem.KVTokensPerRank <= 0 {
		return nil, fmt.Errorf("the deployment has no KV cache left in the spec's memory budget")
	}
	w := in.Workload
	// The client's queue under a cap is in none of its latencies
	// (sim.Config.ClientCap).
	cfg := sim.Config{DP: in.Layout.DP, MaxNumSeqs: in.MaxNumSeqs, MaxNumBatchedTokens: in.MaxNumBatchedTokens,
		KVTokensPerRank: int(mem.KVTokensPerRank), BlockSize: in.BlockSize, KV: sim.KVCost(mem.SeqCost()), InputTokens: inTok, OutputTokens: outTok,
		ArrivalRatePerS: w.ArrivalRatePerS, Burstiness: w.ArrivalBurstiness, ClientCap: w.ClientMaxConcurrency,
		Requests: n, Seed: replaySeed, Spread: lengthSpread(r.Shape)}
	slo.FiniteRun(&in, &cfg) // the sessions and the pool of n requests
	cfg.ClientPacing = cfg.ClientPacing && pacedClient(r.Format)
	return &replay{in: in, kvTokens: mem.KVTokensPerRank, cfg: cfg}, nil
}

// lengthSpread is how a replay spreads request lengths around the result's
// means: the uniform spread of the measured lengths where the client saved
// them (the wider of input and output: one spread draws both), the
// conversation default for a ShareGPT run without them, else none (every
// request at the means; shapeText says so).
func lengthSpread(s bench.Shape) sim.Spread {
	switch {
	case s.InputCVKnown || s.OutputCVKnown:
		return sim.UniformSpread(max(s.InputCV, s.OutputCV))
	case strings.EqualFold(s.Dataset, "sharegpt"):
		return sim.ConversationSpread
	}
	return sim.Spread{}
}

// replaySeed seeds every replay, so that a fit is reproducible.
const replaySeed = 1

// run simulates the result with the given constants.
func (p *replay) run(eff perf.Efficiency) sim.Result {
	if p.pd != nil {
		return p.pd.run(eff)
	}
	s := perf.SetupFromInput(&p.in)
	s.Eff = perf.ForInput(eff, &p.in)
	cfg := p.cfg
	sm := perf.NewStepModel(s)
	cfg.Step = sm.StepSeconds
	slo.ApplyEngine(&p.in, eff, &cfg) // the release's scheduler, the API server
	return sim.RunModel(sm, cfg)
}

// pacedClient reports whether a result's client paces a finite rate as
// sim.Config.ClientPacing simulates it: vLLM's bench serve, and
// benchmarks/benchmark_serving.py, which imports its get_request from
// v0.10.0 (the tag 6d8d0a24c: `from vllm.benchmarks.serve import
// get_request`) and is a stub pointing to `vllm bench serve` at v0.11.0.
// Which release a result's client ran is not in its JSON: a client older
// than v0.10.0 (PR #21108) sent the first request at once and the gaps
// unscaled, which this replays as paced. Other clients are replayed
// unpaced.
func pacedClient(f bench.Format) bool { return f == bench.FormatVLLM || f == bench.FormatVLLMScript }

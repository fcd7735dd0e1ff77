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
)

// maxSimRequests caps the requests one replay simulates: a closed loop of
// c sessions is replayed with at least 32 waves of c requests (and at
// least 200), which holds its steady state and start-up; more only costs
// time, which the fit pays over a thousand times. A burst is replayed
// whole (its queue is the measurement), and so is an open loop (Poisson,
// gamma, capped) of up to 2,000 requests.
func maxSimRequests(l bench.Load) int {
	switch l.Kind {
	case bench.LoadClosedLoop:
		return max(200, 32*l.Concurrency)
	case bench.LoadPoisson, bench.LoadGamma, bench.LoadCapped:
		return 2000
	}
	return math.MaxInt
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
	in.Workload.InputTokens, in.Workload.OutputTokens = inTok, outTok
	in.Workload.Concurrency = max(1, r.Load.Concurrency)
	mem := estimate.Memory(&in)
	if mem.KVTokensPerRank <= 0 {
		return nil, fmt.Errorf("the deployment has no KV cache left in the spec's memory budget")
	}
	n := min(r.Load.Prompts, maxSimRequests(r.Load))
	cfg := sim.Config{DP: in.Layout.DP, MaxNumSeqs: in.MaxNumSeqs, MaxNumBatchedTokens: in.MaxNumBatchedTokens,
		KVTokensPerRank: int(mem.KVTokensPerRank), BlockSize: in.BlockSize, KV: sim.KVCost(mem.SeqCost()), InputTokens: inTok, OutputTokens: outTok,
		Requests: n, Seed: replaySeed, Spread: lengthSpread(r.Shape)}
	switch r.Load.Kind {
	case bench.LoadClosedLoop:
		cfg.Sessions, cfg.Pool = r.Load.Concurrency, n
	case bench.LoadBurst:
		cfg.Sessions, cfg.Pool = n, n
	case bench.LoadPoisson:
		cfg.ArrivalRatePerS = r.Load.RatePerS
	case bench.LoadGamma:
		cfg.ArrivalRatePerS, cfg.Burstiness = r.Load.RatePerS, r.Load.Burstiness
	case bench.LoadCapped: // the client's queue is not in its latencies
		cfg.ArrivalRatePerS, cfg.Burstiness, cfg.ClientCap = r.Load.RatePerS, r.Load.Burstiness, r.Load.Concurrency
	}
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

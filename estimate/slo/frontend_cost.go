package slo

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// FrontEnd is what the simulation says the API servers cost the
// workload's own scenario (FrontEndCost).
type FrontEnd struct {
	// Servers is the API-server processes simulated.
	Servers int
	// FrontendS is the mean time a request spends at the API servers
	// (its ingest behind the others', and streaming its first token:
	// sim.TTFTParts.FrontendS), part of MeanTTFTS.
	FrontendS, MeanTTFTS float64
	// TTFTP99S, TPOTS and OutputTokPerS are the run's TTFT p99, mean TPOT
	// and output throughput.
	TTFTP99S, TPOTS, OutputTokPerS float64
	// Overloaded: the arrivals exceed what the deployment sustains (an
	// open loop; no TTFT figures). FirstStretch: the run was cut at its
	// work ceiling before it measured what it asked for, so its figures are
	// a first stretch's.
	Overloaded, FirstStretch bool
}

// FrontEndCost simulates the workload's scenario of in's deployment as it
// is and with n API servers (its spec's vllm.api_server_count set to n and
// resolved again, as generate would write it), side by side, each one run
// of a verification's length (the screening run of a "what it would take"
// line: one replication at a third of a scenario's work, seed 1). Both
// runs are alike, so their difference is the API servers'. ok is false
// when the deployment has no spec to edit, n does not resolve, nothing
// fits, or a run measured no request.
func FrontEndCost(in *input.Input, n int) (now, with FrontEnd, ok bool) {
	d := in.Resolved()
	if d == nil || d.Spec == nil || d.Spec.Parallelism.Auto || d.Spec.Disaggregation != nil {
		return FrontEnd{}, FrontEnd{}, false
	}
	s := *d.Spec
	s.Hardware.Nodes = append([]spec.Node(nil), s.Hardware.Nodes...)
	s.VLLM.APIServerCount = &n
	r, err := resolve.FromSpec(&s)
	if err != nil {
		return FrontEnd{}, FrontEnd{}, false
	}
	alt := input.FromResolved(r)
	var okNow, okWith bool
	sideBySide(2, func(i int) {
		if i == 0 {
			now, okNow = frontEndRun(in)
		} else {
			with, okWith = frontEndRun(&alt)
		}
	})
	return now, with, okNow && okWith
}

// frontEndRun is FrontEndCost's run of in's workload scenario.
func frontEndRun(in *input.Input) (FrontEnd, bool) {
	m := memory.Estimate(in)
	kv := kvOf(&m)
	if kv <= 0 {
		return FrontEnd{}, false
	}
	opt := Options{Seed: 1, NoAdvice: true, kv: seqCostOf(&m), fullWarmup: true, Replications: wouldPassRuns,
		workBudget: sim.StepBudget / verifyBudgetDivisor,
		Requests:   wouldPassRuns * max(loadSearchRequests, 2*max(1, in.Workload.Concurrency))}
	servers, _ := frontEndServers(in)
	sc := simulateScenario(in, perf.NewStepModel(perf.SetupFromInput(in)), kv, max(1, in.Workload.InputTokens), opt)
	r := sc.Result
	if r.Overloaded {
		return FrontEnd{Servers: servers, OutputTokPerS: r.OutputTokPerS, Overloaded: true}, true
	}
	if r.Requests == 0 {
		return FrontEnd{}, false
	}
	return FrontEnd{Servers: servers, FrontendS: r.TTFTParts.FrontendS, MeanTTFTS: r.TTFT.Mean,
		TTFTP99S: r.TTFT.P99, TPOTS: r.TPOT.Mean, OutputTokPerS: r.OutputTokPerS,
		FirstStretch: r.Requests < opt.Requests*9/10}, true
}

// Costs says whether the API servers of now cost the workload a
// material share against with: now overloaded where with is not, or the
// time at the API servers longer by at least share of now's mean TTFT,
// or the output throughput lower by at least share of with's.
func (now FrontEnd) Costs(with FrontEnd, share float64) bool {
	switch {
	case now.Overloaded || with.Overloaded:
		return now.Overloaded && !with.Overloaded
	case now.FrontendS-with.FrontendS >= share*now.MeanTTFTS:
		return true
	}
	return with.OutputTokPerS-now.OutputTokPerS >= share*with.OutputTokPerS
}

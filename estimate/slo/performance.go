package slo

import (
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// Options tune the performance half of `vlaunch check`.
type Options struct {
	// Seed makes the simulation reproducible (--seed).
	Seed uint64
	// Requests is the number of simulated requests measured per scenario,
	// and Replications the number of independent runs they are split
	// over, for the confidence intervals of the percentiles (1 = one run,
	// no interval); 0 sizes them within the simulator's work budget
	// (sim.RunModelReplicated).
	Requests     int
	Replications int
	// NoAdvice skips what only the report's advice needs — the
	// alternatives and the "what it would take" searches — for callers
	// that rank many configurations by their verdicts (vlaunch plan). The
	// verdicts and predictions are the same.
	NoAdvice bool
	// MaxWarmup, when positive, caps the requests a scenario discards
	// before measuring (a layout search's short ranking runs: a closed loop
	// of thousands of sessions would otherwise warm up for thousands of
	// requests per layout).
	MaxWarmup int
	// WorkShare, between 0 and 1, is the part of a check scenario's work
	// budget a ranking run may spend (0: all of it): a search simulating
	// dozens of layouts gives each a small part, so that all of them cost
	// about one check. A ranking's verdicts on runs cut short at their
	// work ceiling (sim.Result.Truncated) stand as their figures say,
	// where a check's become uncertain (cutShort): a ranking compares
	// layouts, and the chosen one is then checked in full. Re-judging
	// them made the search pass over layouts whose runs are costly: on
	// 320 random auto specs, 23 choices moved and 2 feasible choices were
	// lost; judged as they are, 13 moved, 1 lost and 1 gained, the rest
	// among layouts none of which is feasible (a search at a sliver of
	// the budget is approximate, and says when its budget ran out).
	WorkShare float64
	// Memo, when set, shares identical pool simulations between the
	// evaluations given it (package pd keys a decode pool's run by its
	// *input.Input, so those inputs must not change while it is in use):
	// a plan run's P/D candidates that share a decode pool. nil: none.
	Memo *sim.Memo
	// workBudget is a scenario's share of the check's simulation work
	// (simulateScenarios; 0: sim.StepBudget).
	workBudget int64
	// kv is what a sequence costs of the KV pool at each length
	// (sim.Config.KV, from memory.Report.SeqCost), set from the memory report
	// the capacity comes from (nil: the pool's tokens, full attention); a
	// pointer keeps Options comparable.
	kv *sim.KVCost
	// fullWarmup keeps a scenario's whole warm-up (warmupFor) under a
	// reduced workBudget: a "what it would take" line's verification run
	// (wouldPassCheck) measures fewer requests, not less settled ones.
	fullWarmup bool
}

// ranking reports whether these options rank layouts (a part of the work
// budget, Options.WorkShare) rather than check one.
func (o Options) ranking() bool { return o.WorkShare > 0 && o.WorkShare < 1 }

// Performance is the `performance` section of the check report.
type Performance struct {
	GEMMPrecision      string `json:"gemm_precision"`
	AttentionPrecision string `json:"attention_precision"`
	All2All            string `json:"all2all"`
	CUDAGraphs         bool   `json:"cuda_graphs"`
	DBO                bool   `json:"dbo"`
	// IndependentRanks: the DP ranks are independent engines, each stepping
	// at its own batch (a dense model with DP > 1: sim.IndependentRanks),
	// not in lock-step.
	IndependentRanks bool            `json:"independent_dp_ranks,omitempty"`
	Constants        perf.Efficiency `json:"constants"`
	// Calibration names the calibration file the constants come from
	// (empty: the global constants).
	Calibration string          `json:"calibration,omitempty"`
	FLOPs       perf.FLOPsInfo  `json:"flops"`
	Decode      perf.DecodeInfo `json:"decode"`
	Network     perf.NetInfo    `json:"network"`
	// Prefill is the idle-system TTFT per input length (workload and SLO lengths).
	Prefill     []perf.PrefillPoint `json:"prefill"`
	Simulations []SimScenario       `json:"simulations"`
	// Alternatives are changed configurations run through the same models
	// (steady state, no simulation) for comparison.
	Alternatives []Alternative `json:"alternatives,omitempty"`
	// Notes are the assumptions behind these numbers, in words.
	Notes []string `json:"notes"`
}

// SimScenario is one simulation run and what it modelled.
type SimScenario struct {
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	Sessions     int     `json:"sessions,omitempty"`
	RatePerS     float64 `json:"arrival_rate_per_s,omitempty"`
	// Burstiness is the open loop's gamma shape (workload.arrival_burstiness,
	// sim.Config.Burstiness) when it is not Poisson; 0: Poisson arrivals, or
	// no open loop.
	Burstiness float64 `json:"arrival_burstiness,omitempty"`
	// ClientCap is the client's cap on the open loop's requests in flight
	// (workload.client_max_concurrency, sim.Config.ClientCap); 0: none.
	// ClientCapHolds says it held the loop below its arrival rate
	// (capHolds: the excess waits in the client's queue), and
	// ClientCapBinds that it, not the GPUs, bounds the throughput
	// (capBinds: lifting it would win back most of the shortfall).
	ClientCap      int  `json:"client_max_concurrency,omitempty"`
	ClientCapHolds bool `json:"client_cap_holds,omitempty"`
	ClientCapBinds bool `json:"client_cap_binds,omitempty"`
	// SustainableRatePerS (open loop) is the most requests per second the
	// deployment serves with these requests (a closed loop keeping every
	// batch full), and Utilization the arrival rate over it: at 1 or more
	// the queue grows without bound and Result.Overloaded is set.
	SustainableRatePerS float64 `json:"sustainable_rate_per_s,omitempty"`
	Utilization         float64 `json:"utilization,omitempty"`
	// Burst is the finite run's number of requests (workload.burst_requests).
	Burst int `json:"burst_requests,omitempty"`
	// Lengths names the request-length distribution the run drew from
	// (workload.lengths; "": every request at the stated lengths).
	Lengths string     `json:"lengths,omitempty"`
	Seed    uint64     `json:"seed"`
	Result  sim.Result `json:"result"`
	// Loop holds a fixed-length closed benchmark loop's states
	// (fixedLoopWorkload, sim.FixedLoopStates), whose span the TTFT bands
	// cover (loopBand); nil otherwise.
	Loop *sim.LoopStates `json:"-"`
}

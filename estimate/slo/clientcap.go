package slo

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// BindClientCap is the throughput verdict's binding when the benchmark
// client's cap on requests in flight (workload.client_max_concurrency)
// holds the open loop below its arrival rate: the client, not the GPUs.
const BindClientCap = "client_cap"

// clientCap is the open loop's client cap the simulations take
// (sim.Config.ClientCap): workload.client_max_concurrency under an
// arrival rate, else 0 (validate refuses it without one).
func clientCap(in *input.Input) int {
	if in.Workload.ArrivalRatePerS <= 0 {
		return 0
	}
	return max(0, in.Workload.ClientMaxConcurrency)
}

// cappedClosedLoop simulates an open loop held to C = ClientCap requests
// in flight whose arrival rate is at or above the deployment's capacity
// (simulateScenario's saturated run): C in flight deliver at most that
// capacity, so the client's queue grows for as long as the arrivals go on
// and never empties, and every slot a request frees is taken at once by
// the next one, sent then (its TTFT and end-to-end timers start there:
// sim.Config.ClientCap). That is the closed loop of C sessions without
// think time, which sim.Config.MaxWaiting's doc states of the simulator's
// capped loop and estimate/pd's cappedScenario (step 2) takes for a P/D
// deployment. Simulating the capped loop itself would hold the whole
// growing client queue (rate − capacity requests a second) for no change
// in any measured figure, so the closed loop is run: the workload with
// concurrency C and no rate, through scenarioConfig as check runs a
// closed loop, but with its sessions' first requests spread over C ÷
// rate, the mean time the client's first C arrivals take (check's own
// closed loop spreads them over one request's duration): with requests
// of fixed lengths the sessions keep the phases they start with, so a
// cap far above capacity, whose first C requests leave almost at once,
// prefills them together round after round (its TTFT tail is longer than
// the staggered closed loop's; its throughput the same).
func cappedClosedLoop(in *input.Input, sm *perf.StepModel, kvTokens int64, inputTokens int, opt Options) sim.Result {
	v := *in
	v.Workload.Concurrency, v.Workload.ArrivalRatePerS, v.Workload.ArrivalBurstiness, v.Workload.ClientMaxConcurrency = clientCap(in), 0, 0, 0
	cfg := scenarioConfig(&v, sm, kvTokens, inputTokens, opt)
	cfg.StaggerS = float64(v.Workload.Concurrency) / in.Workload.ArrivalRatePerS
	return sim.RunModelReplicated(sm, cfg, opt.Replications)
}

// capHolds says the client's cap held the scenario's open loop below its
// arrival rate: the rate it served (completions: output tokens/s over
// output tokens) is below the arrival rate by more than three standard
// errors of a Poisson count of the measured requests (3/√n), the noise of
// an uncapped run's measured rate. A cap that only delays bursts (its
// queue empties again) serves the rate and does not hold it. Held, the
// excess waits in the client's queue, so the engine's queue is finite
// (openLoad), whatever limits the rate.
func capHolds(sc *SimScenario) bool {
	r := sc.Result
	if sc.ClientCap <= 0 || sc.RatePerS <= 0 || r.Overloaded || r.Requests <= 0 || sc.OutputTokens <= 0 {
		return false
	}
	served := r.OutputTokPerS / float64(sc.OutputTokens)
	return served < sc.RatePerS*(1-3/math.Sqrt(float64(r.Requests)))
}

// capBinds says the client's cap, not the GPUs, is what holds the rate:
// it holds the loop below its arrivals (capHolds) and lifting it would
// raise the rate served materially (CapLimits, on the capped run: the
// deployment's uncapped service rate, SustainableRatePerS, which
// simulateScenario measures first, and whether the capped run's KV cache
// was already full). The user QA 39 reference workload (DeepSeek-V3 on
// 32 H20, 4 requests/s, at most 128 in flight) served 0.037 requests/s
// with 2.4 requests waiting for KV and 410 preemptions: closed loops of
// 128, 256 and 1,280 sessions deliver 38, 33 and 36 output tokens/s, so
// the GPUs bind, where the cap was said to. Without a measured service
// rate (a finite run) a cap that holds binds unless the KV was full.
func capBinds(sc *SimScenario) bool {
	if !capHolds(sc) {
		return false
	}
	r := sc.Result
	return CapLimits(r.OutputTokPerS/float64(sc.OutputTokens), sc.SustainableRatePerS, r.MeanKVWaiting, r.Preemptions)
}

// capSaturationGain is the decode curve's criterion of saturation
// (estimate/perf.saturationGain; package pd's BindsAt = 1/(1 + it)):
// more in flight adding less than 10% to the rate is not material.
const capSaturationGain = 0.10

// CapLimits says a client's cap on requests in flight limits a capped
// loop that serves served requests/s (below its arrivals), rather than the
// GPUs, by the rules that already say when the GPUs bind: the loop's KV
// cache was full — on average at least one request waited for KV, or one
// was preempted (kvHoldsBack's test of the simulation) — so more in flight
// would only queue in the engine; or the deployment's uncapped service
// rate sustainable (0: unknown) is within the decode curve's saturation
// gain of what the cap serves (served ≥ sustainable / (1 + 10%), package
// pd's BindsAt utilisation), so lifting the cap would not move the figure
// materially. P/D's capped path (pd.capBound: the closed loop of the cap
// binds only with no pool at BindsAt) is the second rule.
func CapLimits(served, sustainable, meanKVWaiting float64, preemptions int) bool {
	if meanKVWaiting >= 1 || preemptions > 0 {
		return false
	}
	return sustainable <= 0 || served*(1+capSaturationGain) < sustainable
}

// OpenLoopText names a scenario's open loop as the report's simulation
// line does: its arrivals (ArrivalsText) and, under a client cap, the cap
// and that its queue's wait is in no latency.
func OpenLoopText(s SimScenario) string {
	t := ArrivalsText(s.RatePerS, s.Burstiness, "/s")
	if s.ClientCap > 0 {
		t += fmt.Sprintf(", at most %d in flight (the client's cap: its queue's wait is not in TTFT)", s.ClientCap)
	}
	return t
}

// clientCapExplanation opens the throughput verdict's explanation when
// the client's cap binds (capBinds): what C requests in flight deliver
// against the arrival rate.
func clientCapExplanation(sc *SimScenario) string {
	served := sc.Result.OutputTokPerS / float64(sc.OutputTokens)
	t := fmt.Sprintf("The client's cap binds, not the GPUs: at most %d requests in flight (workload.client_max_concurrency) deliver %.2f requests/s, "+
		"below the arrival rate of %.2f/s, so the client's queue grows for as long as the arrivals go on (its wait is in no latency) "+
		"and the deployment serves what a closed loop of %d sessions does", sc.ClientCap, served, sc.RatePerS, sc.ClientCap)
	if sc.SustainableRatePerS > 0 {
		t += fmt.Sprintf("; its GPUs sustain %.2f requests/s with more in flight", sc.SustainableRatePerS)
	}
	return t + ". "
}

// gpusBindExplanation opens the throughput verdict's explanation when the
// client's cap holds the loop but the GPUs bind (capHolds, not capBinds):
// what the cap's requests in flight deliver, and why more would not.
func gpusBindExplanation(sc *SimScenario) string {
	r := sc.Result
	served := r.OutputTokPerS / float64(sc.OutputTokens)
	why := fmt.Sprintf("the deployment's uncapped service rate, %.3g requests/s, is within %.0f%% of it", sc.SustainableRatePerS, 100*capSaturationGain)
	if r.MeanKVWaiting >= 1 || r.Preemptions > 0 {
		why = fmt.Sprintf("its KV cache was already full (%.1f requests waiting for KV on average, %d preempted): more in flight would only queue in the engine", r.MeanKVWaiting, r.Preemptions)
	}
	return fmt.Sprintf("The GPUs bind, not the client's cap: at most %d requests in flight (workload.client_max_concurrency) deliver %.3g requests/s "+
		"against arrivals at %.3g/s (the client's queue grows for as long as they go on; its wait is in no latency), and %s. ",
		sc.ClientCap, served, sc.RatePerS, why)
}

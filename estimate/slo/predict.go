// Package slo is the performance half of `vlaunch check`: it runs the
// step-time model (package perf) and the simulator (package sim) on a
// deployment, judges every SLO with the resource that binds it, says what
// it would take to meet a failing one (sessions, bandwidth, the what-if
// alternatives), advises on the all-to-all backend (EST201) and derives
// the performance notes.
package slo

import (
	"fmt"
	"math"
	"sync"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Prediction is the performance section and the SLO verdicts of a
// deployment, and whether every SLO holds.
type Prediction struct {
	Performance Performance `json:"performance"`
	SLO         []Verdict   `json:"slo"`
	// Feasible is false when any SLO fails.
	Feasible bool `json:"feasible"`
	// advice are the performance findings (EST201, EST202), verified;
	// nil with Options.NoAdvice.
	advice diag.Diagnostics
}

// Predict says how fast the deployment serves its workload and judges
// every SLO. kvTokensPerRank is the KV capacity of one DP rank in tokens
// (from the memory model); 0 means not even one block fits. kvSeqsPerRank
// is how many sequences of input + output tokens that KV holds as the
// memory model counts them (memory.Report.SequencesFit): the decode
// curve's KV limit.
func Predict(in *input.Input, kvTokensPerRank int64, kvSeqsPerRank int, opt Options) Prediction {
	s := perf.SetupFromInput(in)
	sm := perf.NewStepModel(s)
	p := Performance{All2All: s.A2A.String(), CUDAGraphs: s.CUDAGraphs,
		DBO: s.DBO, Constants: s.Eff, Notes: perfNotes(&s)}
	if in.Calibration.File != nil {
		p.Calibration = in.Calibration.Describe()
	}
	if sim.IndependentRanks(in.Model.IsMoE(), in.Layout.DP) {
		p.IndependentRanks = true
		p.Notes = append(p.Notes, fmt.Sprintf("the %d DP ranks of a dense model are independent engines (vLLM steps DP engines together only for a MoE model): "+
			"the simulation runs every rank at its own batch and pace, the requests reaching them through vLLM's DP load balancer", in.Layout.DP))
	}
	if in.Layout.Nodes > 1 && in.Network.InterGbitPerSPerNIC <= 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("no inter-node network given: assumed one %d Gbit/s NIC per GPU (%d per node), %d µs latency",
			perf.DefaultInterGbitPerGPU, in.Layout.GPUsPerNode, perf.DefaultInterLatencyUs))
	}
	if note := linkNote(in, &s); note != "" {
		p.Notes = append(p.Notes, note)
	}
	if on, _ := in.Release().AsyncSchedulingByDefault(); on == vllm.Present && !s.OverlapHost {
		p.Notes = append(p.Notes, "vLLM "+in.VLLMVersion+" schedules asynchronously by default (from 0.14.0), hiding part of the host's work between steps behind the GPU; "+
			"the prediction charges all of it (hiding all of it made the calibration's vLLM 0.17 and 0.19 runs 16–57% too fast), so decode at small batches may run faster than predicted")
	}
	if note := dpWaveNote(in); note != "" {
		p.Notes = append(p.Notes, note)
	}
	if note := reasoningTTFTNote(in); note != "" {
		p.Notes = append(p.Notes, note)
	}
	if perf.AsyncScheduling(in) {
		p.Notes = append(p.Notes, "with async scheduling vLLM schedules each step while the one before it runs, so a request that arrives while steps run "+
			"waits for the step already scheduled: the simulation counts that step in the engine queue of TTFT")
	}
	p.GEMMPrecision, p.AttentionPrecision = s.Precisions()
	p.FLOPs = sm.FLOPsInfo(in)
	for _, n := range perfInputLengths(in) {
		pt := idlePrefill(sm, in, n) // the prompt; its cached prefix is read, not computed
		p.Prefill = append(p.Prefill, pt)
	}
	if kvTokensPerRank > 0 {
		p.Simulations = simulateScenarios(in, sm, kvTokensPerRank, perfInputLengths(in), opt)
	}
	if note := historyNote(in, &p); note != "" {
		p.Notes = append(p.Notes, note)
	}
	if note := prefixHitNote(in, &p); note != "" {
		p.Notes = append(p.Notes, note)
	}
	if note := tilingNote(in, sm, kvTokensPerRank, opt); note != "" {
		p.Notes = append(p.Notes, note)
	}
	in = openLoopConcurrency(in, &p)
	p.Decode = sm.DecodeInfo(in, kvSeqsPerRank)
	p.Network = sm.NetInfo(p.Decode)
	if !opt.NoAdvice {
		p.Alternatives = Alternatives(in)
	}
	r := Prediction{Performance: p}
	// The advice's verification runs (a re-resolved deployment simulated)
	// go alongside the verdicts' own "what it would take" runs: both only
	// read the performance section, and one after the other they cost
	// check on the reference a fifth of a second.
	var advice chan diag.Diagnostics
	if !opt.NoAdvice {
		advice = make(chan diag.Diagnostics, 1)
		perf := p
		go func() {
			advice <- append(append(backendAdvice(in, &perf, opt), tpAcrossNodesAdvice(in, &perf, opt)...), apiServersAdvice(in)...)
		}()
	}
	r.SLO = judgeSLOs(in, sm, &r.Performance, kvTokensPerRank, opt)
	if advice != nil {
		r.advice = <-advice
	}
	r.Feasible = true
	for _, v := range r.SLO {
		if v.Verdict == VerdictFail {
			r.Feasible = false
		}
	}
	return r
}

// historyNote says what the simulation assumed of sessions that keep
// their history (input.Input.Conversation, sim.Config.SessionTokens): the
// turns' growing context, its mean, and how much of the history the
// workload's scenario found in the prefix cache.
func historyNote(in *input.Input, p *Performance) string {
	c, ok := in.Conversation()
	if !ok || in.Workload.ArrivalRatePerS > 0 {
		return ""
	}
	w := in.Workload
	note := fmt.Sprintf("sessions of up to %d tokens (workload.session_tokens) keep their history: each turn sends the conversation so far plus %d new tokens "+
		"and holds KV for all of it, %d turns of %d + %d tokens before a session starts over, a decoding turn's mean context %.0f tokens (the decode curve's too)",
		c.Limit, w.InputTokens, c.Turns(w.InputTokens, w.OutputTokens), w.InputTokens, w.OutputTokens, c.MeanContext(w.InputTokens, w.OutputTokens))
	s := p.sim(w.InputTokens)
	switch {
	case s == nil:
	case !prefixCaching(in):
		note += "; prefix caching is off, so every turn prefills its whole history again"
	default:
		routes := "the DP load balancer routes by queue lengths"
		if r := RouterFor(in); r.Active() {
			routes = fmt.Sprintf("vllm-router routes by its %s policy", r.Policy)
			if r.Policy == sim.RouteCacheAware {
				routes += fmt.Sprintf(": a session's turn goes back to its last turn's rank while that prompt is over %.0f%% of the new one "+
					"and the loads stay balanced (max − min ≤ %d or max ≤ %.1f × min)", 100*r.CacheThreshold, r.BalanceAbs, r.BalanceRel)
			}
		}
		note += fmt.Sprintf("; vLLM's prefix cache (on by default) serves a history only on the DP rank that ran the previous turn and while the KV pool keeps it "+
			"(%s): the simulation reused %.0f%% of the history tokens and prefilled the rest again", routes, 100*s.Result.HistoryReused)
	}
	return note
}

// tilingNote says how the simulation stands for a large lock-step
// deployment (sim.SimulatedRanks of the workload's scenario), when it
// simulates fewer ranks than the deployment has.
func tilingNote(in *input.Input, sm *perf.StepModel, kv int64, opt Options) string {
	dp := sm.S.DP
	if !sm.S.Model.IsMoE() || dp <= 1 || kv <= 0 {
		return ""
	}
	k, few := sim.SimulatedRanks(sm, scenarioConfig(in, sm, kv, max(1, in.Workload.InputTokens), opt))
	switch {
	case few:
		return fmt.Sprintf("fewer sessions than the %d lock-step DP ranks: the DP coordinator gives each session a rank of its own; "+
			"the simulation runs %d busy ranks of one session each and tiles them over as many ranks as there are sessions, the other ranks idle", dp, k)
	case k < dp:
		return fmt.Sprintf("the simulation runs %d of the %d lock-step DP ranks and tiles them over the rest: "+
			"a rank and its copies prefill in the same steps, so with few requests per rank the TTFT is approximate (within about 25%% in tests)", k, dp)
	}
	return ""
}

// capacityRequestsMin is the fewest completions a capacity run measures:
// it reads a throughput, not a tail percentile.
const capacityRequestsMin = 50

// saturatedFor is the capacity run of an open loop (sim.Saturated), as
// long as the check's scenario share allows: a share below a full
// scenario's measures proportionally fewer requests (at least
// capacityRequestsMin).
func saturatedFor(cfg sim.Config, dp int, opt Options) sim.Config {
	sat := sim.Saturated(cfg, dp)
	if opt.workBudget > 0 && opt.workBudget < sim.StepBudget {
		sat.Requests = max(capacityRequestsMin, int(float64(sat.Requests)*float64(opt.workBudget)/float64(sim.StepBudget)))
	}
	return sat
}

// warmupFor is how many completed requests a scenario discards before
// measuring: two per simulated session (at least 100), so staggered
// sessions have settled. A check whose scenarios share three scenarios'
// work (simulateScenarios) shortens it in proportion, down to 50: the
// warm-up is most of what a starved scenario simulates, and its measured
// requests' interval says how settled they are.
func warmupFor(sessions int, opt Options) int {
	w := 2 * min(sessions, sim.MaxSimSessions)
	if opt.workBudget > 0 && opt.workBudget < sim.StepBudget && !opt.fullWarmup {
		w = max(50, int(float64(w)*float64(opt.workBudget)/float64(sim.StepBudget)))
	} else {
		w = max(100, w)
	}
	if opt.MaxWarmup > 0 {
		w = min(w, opt.MaxWarmup)
	}
	return w
}

// scenarioOutput is the output length of a scenario's requests: the
// workload's, but no more than vLLM accepts beside the prompt
// (vllm.MaxCompletionTokens).
func scenarioOutput(in *input.Input, inputTokens int) int {
	return vllm.MaxCompletionTokens(in.MaxModelLen, inputTokens, in.Workload.OutputTokens)
}

// perfInputLengths is the workload's input length followed by every other
// input length an SLO names (spec.ScenarioInputLengths).
func perfInputLengths(in *input.Input) []int { return spec.ScenarioInputLengths(in.Workload, in.SLO) }

// simulateScenario runs the workload's load (its sessions, or its arrival
// rate) with requests of the given input length, in opt's replications. An
// open loop is first compared with the deployment's capacity: at or above
// it the queue grows without bound, which is said (Overloaded, with the
// sustainable rate) instead of simulated, unless the client caps the
// requests in flight (workload.client_max_concurrency): then the client's
// queue grows instead and the engine serves the closed loop of the cap's
// sessions (cappedClosedLoop).
func simulateScenario(in *input.Input, sm *perf.StepModel, kvTokens int64, inputTokens int, opt Options) (sc SimScenario) {
	w := in.Workload
	cfg := scenarioConfig(in, sm, kvTokens, inputTokens, opt)
	_, lengths := lengthSpread(in.Workload, inputTokens, cfg.OutputTokens)
	sc = SimScenario{InputTokens: inputTokens, OutputTokens: cfg.OutputTokens, Sessions: cfg.Sessions, Lengths: lengths,
		RatePerS: w.ArrivalRatePerS, Burstiness: arrivalShape(w), ClientCap: cfg.ClientCap, Burst: cfg.Pool, Seed: opt.Seed}
	defer func() { sc.ClientCapHolds, sc.ClientCapBinds = capHolds(&sc), capBinds(&sc) }()
	if cfg.Sessions > 0 || cfg.Pool > 0 { // a finite run's queue is finite, whatever the rate
		sc.Result = sim.RunModelReplicated(sm, cfg, opt.Replications)
		if fixedLoopWorkload(in) {
			applyLoopStates(&sc, sm, cfg, opt.Replications)
		}
		return sc
	}
	capacity := sim.RunModel(sm, saturatedFor(cfg, sm.S.DP, opt))
	sc.SustainableRatePerS = capacity.OutputTokPerS / float64(cfg.OutputTokens)
	if sc.SustainableRatePerS > 0 {
		sc.Utilization = w.ArrivalRatePerS / sc.SustainableRatePerS
	}
	if sc.Utilization < 1 {
		sc.Result = sim.RunModelReplicated(sm, cfg, opt.Replications)
	} else if cfg.ClientCap > 0 { // the client's cap holds the loop: its closed loop
		sc.Result = cappedClosedLoop(in, sm, kvTokens, inputTokens, opt)
		sc.Result.Work += capacity.Work
		return sc
	}
	work := sc.Result.Work + capacity.Work
	if sc.Utilization >= 1 || sc.Result.Overloaded {
		sc.Result = sim.Overloaded(capacity)
	}
	sc.Result.Work = work // both runs' (a caller budgeting many checks counts them)
	return sc
}

// fullScenarios is how many scenarios a check simulates with the whole
// per-scenario work budget (sim.StepBudget): the workload's input length
// and two TTFT lengths, as the reference has. A check with more TTFT
// lengths (up to 16) splits that much work between them, so its
// simulation costs no more than three scenarios' whatever the spec: on a
// deployment whose steps are costly (thousands of lock-step DP ranks) each
// run measures fewer requests, and the percentiles' interval says so. A
// ranking's single short run per scenario (Options.Requests) is split
// alike, down to sim.MinMeasured requests.
const fullScenarios = 3

// simulateScenarios runs simulateScenario for each input length, all at
// once: the runs are independent and seeded alike whatever the order, so
// the results are the same as one after another, and a check costs the
// longest of them rather than their sum where cores are free. The step
// model is only read once built.
func simulateScenarios(in *input.Input, sm *perf.StepModel, kvTokens int64, lengths []int, opt Options) []SimScenario {
	out := make([]SimScenario, len(lengths))
	share := func(n int64) int64 { return n * fullScenarios / int64(max(fullScenarios, len(lengths))) }
	opt.workBudget = share(sim.StepBudget)
	if opt.WorkShare > 0 && opt.WorkShare < 1 {
		opt.workBudget = max(1, int64(float64(opt.workBudget)*opt.WorkShare))
	}
	if opt.Requests > 0 { // a ranking's short runs (search, plan) share them the same way
		opt.Requests = max(sim.MinMeasured, int(share(int64(opt.Requests))))
	}
	var wg sync.WaitGroup
	for i, n := range lengths {
		wg.Go(func() { out[i] = simulateScenario(in, sm, kvTokens, n, opt) })
	}
	wg.Wait()
	return out
}

// scenarioConfig is the simulation of one input length under the
// workload's load.
func scenarioConfig(in *input.Input, sm *perf.StepModel, kvTokens int64, inputTokens int, opt Options) sim.Config {
	w := in.Workload
	sessions := 0
	if w.ArrivalRatePerS <= 0 {
		sessions = max(1, w.Concurrency)
	}
	cfg := sim.Config{Step: sm.StepSeconds, DP: sm.S.DP, MaxNumSeqs: in.MaxNumSeqs, MaxNumBatchedTokens: in.MaxNumBatchedTokens,
		KVTokensPerRank: int(kvTokens), BlockSize: in.BlockSize, InputTokens: inputTokens, OutputTokens: scenarioOutput(in, inputTokens),
		Sessions: sessions, ArrivalRatePerS: w.ArrivalRatePerS, Burstiness: w.Burstiness(), Requests: rankRequestsFor(opt.Requests, sessions),
		Warmup: warmupFor(sessions, opt), Seed: opt.Seed, WorkBudget: opt.workBudget, SessionTokens: w.SessionTokens, ClientCap: clientCap(in)}
	// Stagger closed-loop sessions over one request's duration at the load
	// that runs (what the batches hold, not the sessions queued behind
	// them) so they do not start in lock-step.
	pf := idlePrefill(sm, in, inputTokens).TTFTS
	running := min(max(1, sessions), sm.S.DP*sim.RunSlots(cfg))
	dp, _ := sm.DecodeAt(running, float64(inputTokens)+float64(w.OutputTokens)/2)
	cfg.StaggerS = pf + float64(w.OutputTokens)*dp.TPOTS
	// ... and at least over one whole cycle of a session, the other
	// sessions' prefill steps included (sim.SessionCycle): a closed loop
	// of identical requests keeps the phases it starts with.
	cfg.StaggerS = max(cfg.StaggerS, sim.SessionCycle(sm, cfg))
	if opt.kv != nil {
		cfg.KV = *opt.kv
	}
	cfg.Spread, _ = lengthSpread(w, inputTokens, cfg.OutputTokens)
	ApplyEngine(in, sm.S.Eff, &cfg)
	cfg.PrefixHitRate = prefixHitRate(in)
	burstLoad(in, &cfg)
	if _, history := in.Conversation(); history && cfg.Sessions > 0 && cfg.WorkBudget > 0 {
		cfg.WorkBudget = max(1, cfg.WorkBudget/historyBudgetDivisor)
	}
	return cfg
}

// historyBudgetDivisor divides a scenario's work budget where sessions
// keep their history: their turns prefill long prompts in most lock-step
// steps, so the simulator can seldom advance a steady stretch of decode
// steps at once, and the reference's three scenarios at the full budget
// took check from 0.22 to 0.7 s (a quarter of it: 0.22 s of CPU, main's
// 0.27 s without history). A cost bound, not a model constant: it
// sets how many requests the runs measure (the report prints their
// run-to-run spread), not what they predict.
const historyBudgetDivisor = 4

// rankRequestsFor is a ranking run's measured requests (Options.Requests,
// shared between scenarios; 0: check's own) for a closed loop of sessions:
// at least one completion per simulated session, a whole round of the
// loop. A window of fewer completions than sessions measures the sessions
// that finish first and reads the throughput high: plan's 500-request
// ranking of the GB200 NVL72 example (1,024 sessions) read 30,044 output
// tokens/s where check's full run reads 20,677 (1,000 requests: 21,315;
// 2,000: 20,889; found by the session-37 QA pass).
func rankRequestsFor(requests, sessions int) int {
	if requests <= 0 || sessions <= 0 {
		return requests
	}
	return max(requests, min(sessions, sim.MaxSimSessions))
}

// perfNotes states the modelling assumptions that matter for this setup.
func perfNotes(s *perf.StepSetup) []string {
	notes := []string{
		"step time per DP rank = overhead + Σ over operation classes (dense projections, routed experts, attention) of max(compute, memory) + communication; compute and memory are a roofline per class, not a sum",
	}
	if t := s.DenseGEMMTable(); t != "" {
		notes = append(notes, "dense projections (attention's and the MLP's, an MoE's shared experts and router, the LM head) at the measured latency of each GEMM shape "+
			"(aiconfigurator's vLLM table "+t+": weight streaming and launch included), not a roofline; the GEMM efficiencies above do not price them")
	}
	if s.Model.IsMoE() {
		notes = append(notes, "MoE routing assumed uniform over experts (group-limited where the model has n_group/topk_group); EPLB replicas and routing skew are not modelled")
	}
	if s.DP > 1 {
		notes = append(notes, "a request's prefill runs on one DP rank (attention and dense layers are not split across DP); only routed experts are spread over the EP group")
	}
	switch s.A2A {
	case vllm.TrafficGather:
		notes = append(notes, "all2all "+s.A2A.String()+": every EP rank gathers every token of the group (BF16) and reduce-scatters the outputs")
	case vllm.TrafficPerNode:
		notes = append(notes, "all2all DeepEP high-throughput: one RDMA copy per remote node hit, NVLink forwarding there; CUDA graphs off with DP>1")
	case vllm.TrafficPerExpert:
		if s.HW.MNNVL() && !s.A2AHostNodes {
			notes = append(notes, "all2all DeepEP low-latency: one copy per remote expert (up to top-k copies per token), over NVLink inside the NVLink domain")
		} else {
			notes = append(notes, "all2all DeepEP low-latency: one RDMA copy per remote expert (up to top-k copies per token)")
		}
	}
	if s.DBO {
		notes = append(notes, "DBO: two micro-batches overlap all-to-all with compute; half of the shorter side stays exposed")
	} else if s.A2A != vllm.TrafficNone {
		notes = append(notes, "no DBO: all-to-all time adds to compute (no overlap)")
	}
	return notes
}

// openLoopConcurrency returns in unchanged for closed-loop workloads. With
// Poisson arrivals the steady-state analysis needs a concurrency: the
// simulated mean number of running requests (Little's law: rate × time in
// system), stated in the notes.
func openLoopConcurrency(in *input.Input, p *Performance) *input.Input {
	w := in.Workload
	if (w.ArrivalRatePerS <= 0 && w.BurstRequests <= 0) || len(p.Simulations) == 0 {
		return in
	}
	v := *in
	v.Workload.Concurrency = max(1, int(p.Simulations[0].Result.MeanRunning+0.5))
	load := fmt.Sprintf("open-loop arrivals at %.2f requests/s", w.ArrivalRatePerS)
	if w.ArrivalRatePerS <= 0 {
		load = fmt.Sprintf("a burst of %d requests", w.BurstRequests)
	}
	p.Notes = append(p.Notes, fmt.Sprintf("%s: the steady-state analysis uses the simulated mean of %d requests in flight (Little's law)",
		load, v.Workload.Concurrency))
	return &v
}

// loadText describes the workload's load for explanations.
func loadText(in *input.Input) string {
	w := in.Workload
	if w.BurstRequests > 0 {
		// in.Workload.Concurrency is the simulated mean by now
		// (openLoopConcurrency); the cap is the spec's.
		orig := w
		if d := in.Resolved(); d != nil {
			orig = d.Workload
		}
		cap := "all at t=0"
		switch {
		case orig.ArrivalRatePerS > 0:
			cap = fmt.Sprintf("Poisson at %.2f requests/s", orig.ArrivalRatePerS)
			if b := orig.Burstiness(); b != 1 {
				cap = ArrivalsText(orig.ArrivalRatePerS, b, " requests/s")
			}
		case orig.Concurrency > 0 && orig.Concurrency < orig.BurstRequests:
			cap = fmt.Sprintf("at most %d in flight", orig.Concurrency)
		}
		return fmt.Sprintf("a burst of %d requests, %s, ≈%d running on average", w.BurstRequests, cap, w.Concurrency)
	}
	if in.Workload.ArrivalRatePerS > 0 {
		if c := clientCap(in); c > 0 {
			return fmt.Sprintf("%s, at most %d in flight by the client's cap (≈%d in flight)", ArrivalsText(in.Workload.ArrivalRatePerS, in.Workload.Burstiness(), " requests/s"), c, in.Workload.Concurrency)
		}
		return fmt.Sprintf("%s (≈%d in flight)", ArrivalsText(in.Workload.ArrivalRatePerS, in.Workload.Burstiness(), " requests/s"), in.Workload.Concurrency)
	}
	return fmt.Sprintf("%d sessions", max(1, in.Workload.Concurrency))
}

// dpWaveNote says when the release's DP-wave run-ahead is not known: a
// MoE deployment with DP > 1 steps its idle ranks through dummy batches,
// and a request reaching an idle group waits for those the hosts launched
// ahead of their GPUs (vllm.Release.DPDummyRunAheadKnown). Where the
// release was not read the simulation counts none, which can only make
// the predicted TTFT shorter than the engine's.
func dpWaveNote(in *input.Input) string {
	if !sim.DPWaveFor(true, in.Model != nil && in.Model.IsMoE(), in.Layout.DP) || !sim.UseDummyRunAhead {
		return ""
	}
	if _, known, _ := in.Release().DPDummyRunAheadKnown(perf.AsyncScheduling(in)); known == vllm.Present {
		return ""
	}
	return "vLLM " + in.VLLMVersion + ": how many dummy steps an idle DP group's hosts launch ahead of their GPUs is not known for this release " +
		"(read for 0.11.0, 0.12.0 without async scheduling and 0.17.1 on: vllm.Release.DPDummyRunAheadKnown); the simulation counts none, " +
		"so a request reaching an idle group may wait one or two dummy steps longer than its TTFT shows"
}

// arrivalShape is SimScenario.Burstiness: the workload's gamma shape
// under an arrival rate, 0 when that is Poisson (B = 1) or there is no rate.
func arrivalShape(w spec.Workload) float64 {
	if b := w.Burstiness(); b != 1 {
		return b
	}
	return 0
}

// ArrivalsText names an open loop's arrivals at rate (unit follows the
// number: "/s", " requests/s"): Poisson when b is 0 or 1, else gamma gaps
// of shape b (workload.arrival_burstiness), whose coefficient of
// variation 1/√b says how far from a fixed interval they stray.
func ArrivalsText(rate, b float64, unit string) string {
	if b <= 0 || b == 1 {
		return fmt.Sprintf("Poisson arrivals at %.2f%s", rate, unit)
	}
	kind := "smoother"
	if b < 1 {
		kind = "burstier"
	}
	return fmt.Sprintf("gamma arrivals at %.2f%s (burstiness %g: gaps' CV %.2g, %s than Poisson)", rate, unit, b, 1/math.Sqrt(b), kind)
}

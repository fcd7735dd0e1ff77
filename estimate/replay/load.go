package replay

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/vllm"
)

// defaultPrefillBatch is the tokens per rank of a steady-prefill row that
// does not state its batch (the engines' usual chunk).
const defaultPrefillBatch = 8192

// Outcome is what a reproduction predicts for a row, in the row's own
// terms (per deployment; per GPU and per node figures are derived from it).
type Outcome struct {
	OutputTokPerS, InputTokPerS, TotalTokPerS float64
	TTFT, TPOT                                sim.Percentiles
	// Steady is true when the outcome is steady decode or prefill rather
	// than a simulated run (no latency distribution).
	Steady bool
	// Sim is the simulation, when one ran.
	Sim *sim.Result
	// States are, for a fixed-length closed loop (fixedLoop), the least
	// and the greatest of its states' mean and P99 TTFT (the wave, the
	// train, the all-at-once simulation; loopStates): the band spans them.
	// Zero otherwise.
	States loopRange
}

// loopRange is the span of a fixed-length closed loop's states' TTFT
// (seconds), output throughput (RateLo, RateHi: multiples of the point
// prediction) and mean TPOT (seconds).
type loopRange struct{ MeanLo, MeanHi, P99Lo, P99Hi, RateLo, RateHi, TPOTLo, TPOTHi float64 }

// lengths are the request lengths the run used: the published means when
// given (what the client actually sent and received), else the nominal.
func lengths(w published.Workload) (in, out int) {
	in, out = w.InputTokens.Int(), w.OutputTokens.Int()
	if w.InputTokensMean.Positive() {
		in = w.InputTokensMean.Int()
	}
	if w.OutputTokensMean.Positive() {
		out = w.OutputTokensMean.Int()
	}
	return max(1, in), max(1, out)
}

// run reproduces row r with the step model sm and its engine e.
func run(r published.Row, sm *perf.StepModel, e engine, opt Options) (Outcome, error) {
	switch r.Load.Kind {
	case published.LoadSteadyDecode, published.LoadProduction:
		return steadyDecode(r, sm)
	case published.LoadSteadyPrefill:
		return steadyPrefill(r, sm), nil
	case published.LoadClosedLoop, published.LoadBurst, published.LoadOfflineBatch, published.LoadPoisson:
		return simulate(r, sm, e, opt), nil
	}
	return Outcome{}, fmt.Errorf("load kind %q is not reproduced", r.Load.Kind)
}

// steadyDecode runs batch_per_gpu sequences per GPU (per TP group: per
// rank) at the published context. A production row without a batch gets it
// from Little's law: per-GPU output rate over the per-user rate.
func steadyDecode(r published.Row, sm *perf.StepModel) (Outcome, error) {
	l, h := r.Layout, r.Hardware
	batch := r.Load.BatchPerGPU.V
	if !r.Load.BatchPerGPU.Positive() {
		u := r.Figures.OutputTokPerSPerUser
		node := r.Figures.OutputTokPerSPerNode
		if !node.Positive() || !(u.Min.Known && u.Max.Known) {
			return Outcome{}, fmt.Errorf("no batch and no per-user rate")
		}
		batch = float64(int(node.V/h.GPUsPerNode.V/((u.Min.V+u.Max.V)/2) + 0.5))
	}
	ctx := r.Workload.ContextTokens.V
	if !r.Workload.ContextTokens.Positive() {
		in, out := lengths(r.Workload)
		ctx = float64(in) + float64(out)/2
	}
	seqs := int(batch+0.5) * l.TP.Int() * l.DP.Int()
	pt, _ := sm.DecodeAt(seqs, ctx)
	return Outcome{OutputTokPerS: pt.OutputTokPerS, TPOT: sim.Percentiles{Mean: pt.TPOTS, P50: pt.TPOTS, P99: pt.TPOTS}, Steady: true}, nil
}

// steadyPrefill runs full prefill batches of whole prompts on every rank:
// batch_tokens_per_gpu tokens per rank per step when published.
func steadyPrefill(r published.Row, sm *perf.StepModel) Outcome {
	n := max(1, r.Workload.InputTokens.Int())
	batch := defaultPrefillBatch
	if r.Load.BatchTokensPerGPU.Positive() {
		batch = r.Load.BatchTokensPerGPU.Int()
	}
	reqs := float64(max(1, batch/n))
	ld := perf.RankLoad{PrefillTokens: reqs * float64(n), PrefillPairs: reqs * float64(n) * float64(n+1) / 2, PrefillSeqs: reqs}
	st := sm.StepUniform(ld)
	return Outcome{InputTokPerS: ld.PrefillTokens * float64(sm.S.DP) / st.TotalS, Steady: true}
}

// Options tune a reproduction (the seed, and the steady-state proxy of
// today's estimator for the analysis).
type Options struct {
	Seed uint64
	// SteadyProxy runs finite benchmark runs as the steady closed loop the
	// estimator could express before bursts existed (for the before/after
	// analysis only).
	SteadyProxy bool
	// stepHook, when set, sees every simulated step's loads and duration
	// (analysis tests only).
	stepHook func(loads []perf.RankLoad, s float64)
	// trace, when set, sees every applied step once (sim.StepTrace;
	// analysis tests only).
	trace sim.StepTrace
	// train starts a closed loop's sessions evenly staggered over one
	// cycle (trainStart) instead of all at once.
	train bool
}

// simulate runs the benchmark's load through the simulator.
func simulate(r published.Row, sm *perf.StepModel, e engine, opt Options) Outcome {
	in, out := lengths(r.Workload)
	// A dense model's DP ranks are independent engines, each stepping on
	// its own clock at one rank's step (sim.IndependentRanks, as check's
	// sim.RunModel decides it); a MoE model's step together.
	independent := sim.IndependentRanks(sm.S.Model != nil && sm.S.Model.IsMoE(), sm.S.DP)
	rankSM := sm
	if independent {
		rankSM = sim.RankStep(sm)
	}
	step := rankSM.StepSeconds
	if opt.stepHook != nil {
		step = func(l []perf.RankLoad) float64 {
			d := rankSM.StepSeconds(l)
			opt.stepHook(l, d)
			return d
		}
	}
	cfg := sim.Config{Step: step, DP: sm.S.DP, MaxNumSeqs: e.maxSeqs, MaxNumBatchedTokens: e.batchTok,
		InputTokens: in, OutputTokens: out, Seed: max(1, opt.Seed), Policy: e.policy, BlockSize: 16, Spread: spread(r),
		ScheduleAhead: e.scheduleAhead, RecvInterval: e.recvInterval, Independent: independent,
		ReserveDecodes: e.name == "sglang", // SGLang's PrefillAdder (sim reserve.go)
		QueueWindow:    queueWindowEngine(e),
		FirstTokenLag:  rankSM.SGLangFirstTokenLag, Trace: opt.trace}
	kvTokens, cost := kvTokensPerRank(r, e, sm.S.WeightDType, sm.S.KVDType)
	cfg.KVTokensPerRank, cfg.KV = kvTokens, sim.KVCost(cost)
	if e.apiServer {
		eff := sm.S.Eff
		n := float64(max(1, e.apiServers)) // spread over the processes, as slo.ApplyEngine does
		// A random dataset's prompts are decoded id walks, dearer to encode
		// than natural text (perf.PromptTokenS).
		prompt := perf.PromptTokenS(eff, r.Workload.Dataset == "random")
		cfg.Frontend = sim.Frontend{RequestS: eff.FrontendRequestS / n, PromptTokenS: prompt / n,
			TokenS: eff.FrontendTokenS / float64(max(1, e.streamEvery)) / n, Servers: max(1, e.apiServers)}
		// The chat-template parse only where the row's clients called the
		// chat endpoint of a vLLM release that parses per request (a row
		// that does not say which endpoint keeps the fitted front end).
		m, err := catalog.LookupModel(r.Model.Catalog)
		if err == nil && e.versioned && r.Workload.API == published.APIChat {
			cfg.Frontend.ChatTemplateS = eff.ChatTemplateS(e.release, m.ModelType) / n
		}
		cfg.Frontend.Rounds = err == nil && e.versioned && perf.IngestRounds(m.ModelType)
		if e.name == "vllm" && e.versioned {
			harmonyChat := err == nil && m.ModelType == "gpt_oss" && r.Workload.API == published.APIChat
			cfg.Frontend.ReadyDelayS = perf.TokenizerBatchWait(e.release, harmonyChat)
			cfg.Frontend.Tokenizer = perf.PromptTokenizer(e.release, harmonyChat)
		}
	}
	lbd := dplbOf(r, e, sm.S.DP)
	lbd.Dense = sm.S.Model != nil && !sm.S.Model.IsMoE()
	cfg.DPLB = sim.DPLBFor(lbd) // as check decides it (slo.ApplyEngine)
	cfg.DPWave = sim.DPWaveFor(e.name == "vllm", sm.S.Model != nil && sm.S.Model.IsMoE(), sm.S.DP)
	if cfg.DPWave {
		cfg.DummyStep = sim.DummyStepFor(rankSM) // the release's dummy batch: graphed or eager
		if e.versioned {
			cfg.WaveRunAhead = sim.WaveRunAheadFor(e.release, e.scheduleAhead)
		}
	}
	ld := r.Load
	switch ld.Kind {
	case published.LoadClosedLoop:
		cfg.Sessions = ld.Concurrency.Int()
		cfg.Pool = ld.NumPrompts.Int()
		if !ld.NumPrompts.Positive() {
			cfg.Pool = 10 * cfg.Sessions
		}
	case published.LoadBurst, published.LoadOfflineBatch:
		cfg.Sessions, cfg.Pool = ld.BurstRequests.Int(), ld.BurstRequests.Int()
	case published.LoadPoisson:
		cfg.ArrivalRatePerS, cfg.Pool = ld.RequestRatePerS.V, ld.NumPrompts.Int()
		// vllm bench serve paces a finite rate (sim.Config.ClientPacing);
		// only a row that names that client is replayed so
		cfg.ClientPacing = r.Workload.Client == pacingClient
	}
	if opt.train && cfg.Sessions > 0 {
		n := (cfg.Sessions + sm.S.DP - 1) / sm.S.DP
		cfg.StaggerS, cfg.EvenStagger = sim.TrainCycle(sim.RankStep(sm), n, in, out, cfg.MaxNumBatchedTokens), true
	}
	if opt.SteadyProxy {
		pt, _ := sm.DecodeAt(max(1, cfg.Sessions), float64(in+out/2))
		cfg.StaggerS = pt.TPOTS * float64(out)
		cfg.Requests, cfg.Warmup = max(200, 10*cfg.Sessions), 2*cfg.Sessions
		if cfg.Sessions == 0 {
			cfg.Requests, cfg.Warmup = max(200, cfg.Pool), 100
		}
		cfg.Pool, cfg.Policy, cfg.Frontend, cfg.KVTokensPerRank, cfg.KV = 0, sim.DecodeFirst, sim.Frontend{}, 0, sim.KVCost{}
		cfg.MaxNumSeqs, cfg.MaxNumBatchedTokens = 1024, 8192
	}
	res := sim.Run(cfg)
	o := Outcome{OutputTokPerS: res.OutputTokPerS, TotalTokPerS: res.TotalTokPerS, InputTokPerS: res.TotalTokPerS - res.OutputTokPerS,
		TTFT: res.TTFT, TPOT: res.TPOT, Sim: &res}
	if sim.UseFixedLoopStates && fixedLoop(r) && !opt.SteadyProxy && !opt.train {
		loopStates(&o, sm, cfg)
	}
	return o
}

// queueWindowEngine reports whether engine e is vLLM's V1 engine core
// (sim.Config.QueueWindow): a vLLM row whose release serves with V1 by
// default (vllm.Release.EngineEra).
func queueWindowEngine(e engine) bool {
	return e.name == "vllm" && e.versioned && e.release.EngineEra().V1Default == vllm.Present
}

// UseLoopStatesP99 does the same for the P99 TTFT (the wave's last
// prompt).
var UseLoopStatesP99 = true

// fixedLoop reports whether row r is a closed loop of fixed lengths: its
// client ignored EOS (every request decodes its full output) and drew no
// spread of lengths (spread).
func fixedLoop(r published.Row) bool {
	if r.Load.Kind != published.LoadClosedLoop || !r.Workload.IgnoreEOS.V {
		return false
	}
	sp := spread(r)
	if sp.Hi > sp.Lo || sp.Log.Sigma > 0 {
		return false
	}
	// A row run at its published means (spread gives none then) is of
	// fixed lengths only where they are the nominal ones: a mean output
	// of 800 for 1,024 asked is a spread.
	w := r.Workload
	near := func(mean, nominal published.Num, tol float64) bool {
		return !mean.Positive() || !nominal.Positive() || math.Abs(mean.V/nominal.V-1) <= tol
	}
	return near(w.OutputTokensMean, w.OutputTokens, fixedLengthTol) && near(w.InputTokensMean, w.InputTokens, fixedLengthTol)
}

// fixedLengthTol is how far a published mean length may sit from the
// nominal one in a fixed-length run: a random dataset's prompt is decoded
// and re-encoded, which moves its length by a few tokens (8,191 for
// 8,192), not by a twentieth.
const fixedLengthTol = 0.05

// loopStates sets o's TTFT from the fixed-length closed loop's states
// (sim.FixedLoopStates: the all-at-once simulation o already holds, the
// clients' start; the wave; the train) and records their span.
func loopStates(o *Outcome, sm *perf.StepModel, cfg sim.Config) {
	st, ok := sim.FixedLoopStates(sm, cfg, *o.Sim, sim.Run)
	if !ok {
		return
	}
	o.States = loopRange{MeanLo: st.MeanLo, MeanHi: st.MeanHi, P99Lo: st.P99Lo, P99Hi: st.P99Hi}
	o.TTFT.Mean = st.Mean
	if UseLoopStatesP99 {
		o.TTFT.P99 = st.P99
	}
	// The wave state's rate (sim.LoopStates.ScaleThroughput, as check
	// applies it): its tokens in and out are the run's, in the same ratio,
	// over its longer cycle.
	r := sim.Result{OutputTokPerS: o.OutputTokPerS, TotalTokPerS: o.TotalTokPerS}
	if !st.ScaleThroughput(&r) {
		return
	}
	o.OutputTokPerS, o.TotalTokPerS = r.OutputTokPerS, r.TotalTokPerS
	o.InputTokPerS *= st.Rate
	o.States.RateLo, o.States.RateHi = st.RateLo/st.Rate, st.RateHi/st.Rate
	if sim.UseWaveCycleTPOT {
		o.TPOT.Mean, o.TPOT.P50 = st.TPOT.Mean, st.TPOT.P50
		o.States.TPOTLo, o.States.TPOTHi = st.TPOTLo, st.TPOTHi
	}
}

// spread is the spread of the run's request lengths: a random dataset's
// range ratio r as its client reads it (published.Client.RangeAround:
// [1 − r, 1 + r] of the nominal lengths for vLLM's bench serve, [r, 1]
// for SGLang's and for a row that does not name its client) — the row's, or, for a
// closed loop that does not state it but publishes mean E2E, TTFT and TPOT,
// the ratio whose mean output length (1 + r)/2 × L those imply:
// (E2E − TTFT) / TPOT + 1. ShareGPT-like datasets run at their published
// mean lengths with sim.ConversationSpread. Rows with published means of a
// random dataset run at the means, unless their client draws below a
// nominal cap (cappedMeanSpread).
func spread(r published.Row) sim.Spread {
	w, f := r.Workload, r.Figures
	if sp, ok := cappedMeanSpread(r); ok && UseCappedMeanSpread && w.Dataset == "random" {
		return sp
	}
	switch {
	case w.Dataset == "sharegpt":
		return sim.ConversationSpread
	case w.Dataset != "random" || w.OutputTokensMean.Positive() || w.InputTokensMean.Positive():
		return sim.Spread{}
	case w.RangeRatio.Known:
		if c, ok := published.ClientNamed(w.Client); ok && c.RangeAround {
			return aroundSpread(w.RangeRatio.V)
		}
		return ratioSpread(w.RangeRatio.V)
	case r.Load.Kind != published.LoadClosedLoop || !f.E2ES.Mean.Positive() || !f.TPOTMs.Mean.Positive() || !w.OutputTokens.Positive():
		return sim.Spread{}
	}
	ttft := f.TTFTMs.Mean.V / 1e3
	mean := (f.E2ES.Mean.V-ttft)/(f.TPOTMs.Mean.V/1e3) + 1
	return ratioSpread(2*mean/w.OutputTokens.V - 1)
}

// UseCappedMeanSpread runs a random-dataset row that publishes its mean
// lengths and whose client draws them uniformly below the nominal ones
// (cappedMeanSpread) with a spread of lengths instead of every request at
// the means.
var UseCappedMeanSpread = true

// cappedMeanSpread is the spread of a random-dataset row whose client
// draws each length uniformly up to the nominal one (SGLang's
// bench_serving, published.Client.RangeAround false: randint(L × r, L))
// with a stated range ratio r below 1, and which publishes the run's mean
// lengths (a few prompts' draws: 610 of 1,000 over ten): uniform with the
// published mean and the nominal cap, [max(2m − L, r·L), L] when the mean
// is above the middle of that range, else [r·L, 2m − r·L]; as fractions of
// the mean, input and output each their own. Why it matters: a prompt's
// prefill time is not linear in its length where the eager launch floor
// holds the short ones (SGLang, perf.StepModel.overhead), so the mean TTFT
// of lengths spread over [388, 8,000] is not the TTFT of 4,194 tokens.
func cappedMeanSpread(r published.Row) (sim.Spread, bool) {
	w := r.Workload
	c, ok := published.ClientNamed(w.Client)
	if !ok || c.RangeAround || !w.RangeRatio.Known || !(w.RangeRatio.V < 1) ||
		!w.InputTokensMean.Positive() || !w.OutputTokensMean.Positive() || !w.InputTokens.Positive() || !w.OutputTokens.Positive() {
		return sim.Spread{}, false
	}
	in, okIn := cappedBounds(w.InputTokensMean.V, w.InputTokens.V, w.RangeRatio.V)
	out, okOut := cappedBounds(w.OutputTokensMean.V, w.OutputTokens.V, w.RangeRatio.V)
	if !okIn || !okOut {
		return sim.Spread{}, false
	}
	return sim.Spread{Lo: in[0], Hi: in[1], OutLo: out[0], OutHi: out[1]}, true
}

// cappedBounds is the uniform range, as fractions of the mean m, with mean
// m inside [r·L, L] (cappedMeanSpread); false when m lies outside that
// range (the published mean contradicts the client's draw: no spread).
func cappedBounds(m, l, r float64) ([2]float64, bool) {
	lo := max(0, r) * l
	if !(m > lo && m < l) {
		return [2]float64{}, false
	}
	if m >= (lo+l)/2 {
		return [2]float64{(2*m - l) / m, l / m}, true
	}
	return [2]float64{lo / m, (2*m - lo) / m}, true
}

// ratioSpread is a range ratio as a spread ([r, 1]; none at r ≥ 1).
func ratioSpread(r float64) sim.Spread {
	if r >= 1 {
		return sim.Spread{}
	}
	return sim.Spread{Lo: max(0, r), Hi: 1}
}

// aroundSpread is a range ratio read around the nominal length
// ([1 − r, 1 + r]; none at r ≤ 0, and r is capped below 1 as the client
// requires).
func aroundSpread(r float64) sim.Spread {
	if !(r > 0) {
		return sim.Spread{}
	}
	r = min(r, 1)
	return sim.Spread{Lo: 1 - r, Hi: 1 + r}
}

// ttftAfterReasoning reports whether row r's TTFT was timed after the
// model's reasoning: its client (workload.client) stops at the first
// non-empty content (published.StopFirstContent), it called vLLM's chat
// endpoint (workload.api), and that endpoint streams this model's first
// tokens outside `content` (vllm.ReasoningStreamsFirst: gpt-oss, or a
// --reasoning-parser among the row's engine flags). A client that stops at
// the first chunk (vllm bench serve) times the first token whatever the
// model, and the completions endpoint streams the raw text.
func ttftAfterReasoning(r published.Row) bool {
	c, ok := published.ClientNamed(r.Workload.Client)
	if !ok || c.Stop != published.StopFirstContent || r.Workload.API != published.APIChat || r.Engine.Name != "vllm" {
		return false
	}
	m, err := catalog.LookupModel(r.Model.Catalog)
	if err != nil {
		return false
	}
	first, _, _ := vllm.ReasoningStreamsFirst(m.ModelType, strings.Fields(r.Engine.Flags))
	return first
}

// pacingClient is the client (workload.client) that paces a finite open
// loop as sim.Config.ClientPacing simulates it: vllm bench serve, from
// v0.10.0 (PR #21108; vllm/benchmarks/serve.py get_request at the v0.10.0
// and v0.11.0 tags).
const pacingClient = "vllm-bench-serve"

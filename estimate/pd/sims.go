package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// Run sizes of each pool's simulation: a P/D check runs two or three
// simulations per scenario, so each gets a part of a colocated scenario's
// work (sim.StepBudget) and measures fewer requests in fewer replications.
const (
	simRequests     = 1200
	simReplications = 3
	simBudgetShare  = 3 // sim.StepBudget / simBudgetShare per simulation
)

// load is the traffic a pool's simulation gets: closed-loop sessions or
// Poisson arrivals at a rate (whole pool). thinkS is how long a session
// spends outside the pool between two of its requests (the prefill pool's
// sessions: the hand-off and the decode pool; the decode pool's: the
// prefill pool and the hand-off), so that a few sessions do not queue
// behind themselves as Poisson arrivals at their rate would; rate is then
// their rate, the stream simDecode falls back to when the sessions are
// more than it simulates.
//
// pool > 0 makes the load a finite run of pool requests (sim.Config.Pool:
// workload.burst_requests, a benchmark's --num-prompts), every request
// measured from an idle start and throughput over the whole run; its
// sessions' first requests leave uniformly over [0, staggerS) (0: all at
// t=0) instead of being spread over a request's duration as a steady loop's
// are (finite.go).
//
// burstiness is a rate load's gamma shape (sim.Config.Burstiness; 0 or 1:
// Poisson). Only the prefill pool's arrivals take the client's
// (workload.arrival_burstiness, simPrefill): they are the client's
// requests, forwarded by the router as they come. The decode pool's
// arrivals stay the Poisson stream at the rate they were before the
// field existed: they are the prefill completions after the hand-off,
// the client's gaps reshaped by the prefill pool (requests that waited
// leave together at a step's end, a batch of prompts finishes as one
// step) and by each request's transfer, a departure process no source
// here measured and the simulator does not produce from the prefill
// run; the decode pool admits arrivals at its next step boundary, so
// their shape moves its queue, not the prefill's, which is TTFT's large
// term under load.
//
// cap, with a rate, is the client's cap on requests in flight as this
// pool's simulation sees it (sim.Config.ClientCap, 0: none): the slots the
// rest of the system does not hold (capped.go).
type load struct {
	cap        int
	sessions   int
	rate       float64
	thinkS     float64
	pool       int
	staggerS   float64
	burstiness float64
}

// simPrefill runs the prefill pool on the colocated path (sim.RunModel):
// requests of n prompt tokens that produce one token (max_tokens 1, as the
// router sends them).
//
// A rate load's arrivals are the client's: gamma of the workload's shape
// (spec.Workload.ArrivalBurstiness; Poisson when not given), as the
// colocated path simulates them (estimate/slo scenarioConfig).
func simPrefill(p *Pool, n int, l load, seed uint64) sim.Result {
	if l.sessions == 0 && l.rate > 0 {
		l.burstiness = p.in.Workload.ArrivalBurstiness
	}
	return sim.RunModelReplicated(p.sm, prefillConfig(p, n, l, seed), simReplications)
}

// prefillConfig is simPrefill's simulator configuration at prompts of n
// tokens: what the pool's prefix cache does not serve (PromptReuse), each
// request drawn cached or new (prefillDraw).
func prefillConfig(p *Pool, n int, l load, seed uint64) sim.Config {
	in, share, rate := p.prefillDraw(n)
	cfg := colocatedConfig(p, in, 1, func() float64 { return p.idlePrefill(n).TTFTS }, l, seed)
	cfg.CachedShare, cfg.PrefixHitRate = share, rate
	return cfg
}

// simRecompute runs a decode pool whose engine has no KV connector
// (Evaluate's DecodeRecomputes): vLLM creates no connector without
// --kv-transfer-config, so the request's kv_transfer_params are never
// acted on and the engine computes the whole prompt itself, beside the
// other requests' decodes, before decoding out tokens: the colocated path
// (sim.RunModel), prompt and output on one engine, at the pool's own
// max_num_batched_tokens.
func simRecompute(p *Pool, n, out int, l load, seed uint64) sim.Result {
	busy := func() float64 {
		dpt, _ := p.sm.DecodeAt(l.sessions, float64(n)+float64(out)/2)
		return p.sm.PrefillIdle(n, max(1, p.in.MaxNumBatchedTokens)).TTFTS + float64(out)*dpt.TPOTS
	}
	return simColocated(p, n, out, busy, l, seed)
}

// simColocated runs a pool on the colocated path (sim.RunModel): requests
// of n prompt tokens that produce out tokens; busyS is how long a session
// spends on the pool per request (evaluated for closed loops only), over
// which (with its time away) the sessions' first requests are spread so
// they do not move in lock-step.
func simColocated(p *Pool, n, out int, busyS func() float64, l load, seed uint64) sim.Result {
	return sim.RunModelReplicated(p.sm, colocatedConfig(p, n, out, busyS, l, seed), simReplications)
}

// colocatedConfig is simColocated's simulator configuration.
func colocatedConfig(p *Pool, n, out int, busyS func() float64, l load, seed uint64) sim.Config {
	cfg := sim.Config{DP: p.sm.S.DP, MaxNumSeqs: p.in.MaxNumSeqs, MaxNumBatchedTokens: p.in.MaxNumBatchedTokens,
		KVTokensPerRank: int(min(p.KVTokensPerRank, math.MaxInt32)), BlockSize: p.in.BlockSize, KV: sim.KVCost(p.Memory.SeqCost()), InputTokens: n, OutputTokens: out,
		Sessions: l.sessions, ArrivalRatePerS: l.rate, Burstiness: l.burstiness, ThinkS: l.thinkS, Requests: simRequests, Warmup: warmup(l.sessions), Seed: seed,
		WorkBudget: sim.StepBudget / simBudgetShare}
	if l.sessions > 0 {
		cfg.StaggerS = busyS() + l.thinkS
	}
	if l.pool > 0 {
		cfg.Pool, cfg.StaggerS, cfg.ThinkFixed = l.pool, l.staggerS, true
	}
	if l.sessions == 0 && l.cap > 0 {
		cfg.ClientCap = l.cap // RunModel gives the simulated ranks their share
	}
	slo.ApplyEngine(p.in, p.sm.S.Eff, &cfg)
	return cfg
}

// prefillRunsAll reports whether the prefill pool's simulation runs every
// one of sessions closed-loop sessions (at prompts of n) rather than
// queueing those past sim.MaxSimSessions, or past two per request a rank
// holds, analytically (as always queued, which sessions away on the decode
// pool are not): at most that many per instance.
func prefillRunsAll(p *Pool, n, sessions int) bool {
	n, _, _ = p.prefillDraw(n) // as simPrefill runs it
	cfg := sim.Config{MaxNumSeqs: p.in.MaxNumSeqs, KVTokensPerRank: int(min(p.KVTokensPerRank, math.MaxInt32)), BlockSize: p.in.BlockSize, KV: sim.KVCost(p.Memory.SeqCost()),
		InputTokens: n, OutputTokens: 1}
	perInstance := (sessions + p.Instances - 1) / max(1, p.Instances)
	return perInstance <= min(sim.MaxSimSessions, 2*sim.RunSlots(cfg)*max(1, p.DP))
}

// warmup is the completions discarded before measuring: two per session,
// at least 100.
func warmup(sessions int) int { return max(100, 2*min(sessions, sim.MaxSimSessions)) }

// admitted is a decode rank's load with every prompt it admits already
// computed: the KV came from the prefill pool, so the engine computes the
// last position only (one token reading its cached prompt, as a prefix-cache
// hit), whatever chunk the simulator scheduled.
func admitted(l perf.RankLoad) perf.RankLoad {
	if l.PrefillSeqs <= 0 {
		return l
	}
	cached := max(0, l.PrefillTokens-l.PrefillSeqs) + l.PrefillPrefix
	l.PrefillTokens, l.PrefillPrefix = l.PrefillSeqs, cached
	l.PrefillPairs = cached + l.PrefillSeqs // Σ 1·(p + 1) over the chunks
	return l
}

// decodeUnit is how the decode pool is simulated: one instance (instances
// are independent), copies of it making up the pool. A dense model's DP
// ranks are independent engines (sim.IndependentRanks, the decision check
// and the replay take): every rank of the instance, each on its own clock
// (independent; sm is one rank's step, sim.RankStep) behind the
// instance's DP balancer; with sim.UseIndependentDP off, one rank of it,
// copies of it making up the pool.
type decodeUnit struct {
	sm          *perf.StepModel
	dp          int
	copies      int
	independent bool
}

func unitOf(p *Pool) (decodeUnit, bool) {
	u := decodeUnit{sm: p.sm, dp: max(1, p.sm.S.DP), copies: max(1, p.Instances)}
	moe := p.sm.S.Model.IsMoE()
	switch {
	case sim.IndependentRanks(moe, u.dp):
		u.sm, u.independent = sim.RankStep(p.sm), true
	case !sim.LockStep(moe, u.dp) && u.dp > 1:
		u.sm, u.copies, u.dp = sim.RankStep(p.sm), u.copies*u.dp, 1
	}
	return u, u.dp <= sim.MaxRepRanks
}

// engines is how many engines the pool's copies of the unit are: one an
// instance of lock-step ranks, one a rank of independent ones.
func (u decodeUnit) engines() int {
	if u.independent {
		return u.copies * u.dp
	}
	return u.copies
}

// decodeKey names a decode run in evaluator.memo: the decode pool (a
// pure function of its input, newPool) and simDecode's other arguments.
type decodeKey struct {
	in     *input.Input
	n, out int
	l      load
	seed   uint64
}

// decodeRun is simDecode's results.
type decodeRun struct {
	res   sim.Result
	extra float64
	ok    bool
}

// simDecode is simDecode of the evaluator's decode pool, run once per
// key within its memo's scope (identical runs in one plan).
func (e *evaluator) simDecode(n, out int, l load) (sim.Result, float64, bool) {
	run := func() any {
		r, x, ok := simDecode(e.dec, n, out, l, e.seed)
		return decodeRun{r, x, ok}
	}
	if e.memo == nil || e.decIn == nil {
		d := run().(decodeRun)
		return d.res, d.extra, d.ok
	}
	d := e.memo.Do(decodeKey{e.decIn, n, out, l, e.seed}, run).(decodeRun)
	return d.res, d.extra, d.ok
}

// decodeConfig is simDecode's simulator configuration before its load.
func decodeConfig(p *Pool, u decodeUnit, n, out int, seed uint64) sim.Config {
	cfg := sim.Config{DP: u.dp, MaxNumSeqs: p.in.MaxNumSeqs, KVTokensPerRank: int(min(p.KVTokensPerRank, math.MaxInt32)), BlockSize: p.in.BlockSize, KV: sim.KVCost(p.Memory.SeqCost()),
		InputTokens: n, OutputTokens: out, Requests: simRequests, Seed: seed, WorkBudget: sim.StepBudget / simBudgetShare,
		StepPasses: u.sm.Passes(), Independent: u.independent}
	// Every admitted prompt fits the token budget whole, so no prompt is
	// chunked (its compute is one token, admitted).
	cfg.MaxNumBatchedTokens = max(p.in.MaxNumBatchedTokens, max(1, p.in.MaxNumSeqs)*(n+1))
	if s := u.sm.S.SpecTokens; s > 0 {
		cfg.Spec = sim.Speculation{Drafts: s, Accept: u.sm.S.SpecAcceptPerPosition()}
	}
	slo.ApplyEngine(p.in, u.sm.S.Eff, &cfg)
	cfg.MaxNumBatchedTokens = max(cfg.MaxNumBatchedTokens, max(1, p.in.MaxNumSeqs)*(n+1))
	return cfg
}

// decodeSimCap is how many closed-loop sessions simDecode simulates on
// one copy of the unit: two per sequence that can run at once (and
// sim.MaxSimSessions in all), as sim.RunModel's closed loops.
func decodeSimCap(cfg sim.Config, u decodeUnit) int {
	return min(sim.MaxSimSessions, 2*sim.RunSlots(cfg)*u.dp)
}

// decodeRunsAll reports whether simDecode runs a closed loop of sessions
// at prompts of n and out output tokens as the loop it is, every session
// simulated; false when it runs them as the Poisson stream at their rate
// (sessions with time away), or queues those past decodeSimCap
// analytically (sessions with none), or cannot simulate the pool at all
// (steadyDecode).
func decodeRunsAll(p *Pool, n, out, sessions int) bool {
	u, ok := unitOf(p)
	if !ok || p.KVTokensPerRank <= 0 {
		return false
	}
	return (sessions+u.copies-1)/u.copies <= decodeSimCap(decodeConfig(p, u, n, out, 0), u)
}

// simDecode runs the decode pool: requests of n prompt tokens arrive with
// their KV, are admitted at a step boundary (costing one token each,
// admitted), and decode out tokens with no prefill beside them. It uses
// the simulator itself with that step (the colocated path, sim.RunModel,
// would charge the prompt's compute), so it simulates every rank (lock-step, or independent: decodeUnit)
// of one instance; ok is false when that is more than sim.MaxRepRanks.
// Closed-loop sessions beyond two per sequence that can run only queue:
// they are accounted for by Little's law (extra wait per request).
func simDecode(p *Pool, n, out int, l load, seed uint64) (res sim.Result, extraWaitS float64, ok bool) {
	u, ok := unitOf(p)
	if !ok || p.KVTokensPerRank <= 0 {
		return sim.Result{}, 0, false
	}
	cfg := decodeConfig(p, u, n, out, seed)
	sessions := 0
	cap := decodeSimCap(cfg, u)
	if l.pool > 0 {
		// A finite run is run through whole, every session simulated (as
		// the colocated path runs a pool: sim.planSim), so none waits
		// analytically; each copy of the unit takes its share.
		cap = sim.MaxSessions
		cfg.Pool = (l.pool + u.copies - 1) / u.copies
	}
	if l.pool <= 0 && l.thinkS > 0 && (l.sessions+u.copies-1)/u.copies > cap {
		// More sessions than the unit simulates: so many finite sources
		// are the Poisson stream at their rate.
		l = load{rate: l.rate}
	}
	if l.sessions > 0 {
		sessions = (l.sessions + u.copies - 1) / u.copies
		cfg.Sessions, cfg.ThinkS = min(sessions, cap), l.thinkS
		dpt, _ := u.sm.DecodeAt(cfg.Sessions, float64(n)+float64(out)/2)
		cfg.StaggerS = float64(out)*dpt.TPOTS + l.thinkS
	} else {
		cfg.ArrivalRatePerS = l.rate / float64(u.copies)
		cfg.MaxWaiting = max(1000, 50*sim.RunSlots(cfg)*u.dp)
		if l.cap > 0 { // each copy of the unit its share of the slots, as sim's replicas share one
			cfg.ClientCap = (l.cap + u.copies - 1) / u.copies
		}
	}
	if l.pool > 0 {
		cfg.StaggerS, cfg.MaxWaiting, cfg.ThinkFixed = l.staggerS, 0, true // a finite run's queue drains
	}
	cfg.Warmup = warmup(cfg.Sessions)
	runs := []perf.RankRun{{N: 1}}
	var memo perf.StepMemo
	var buf []perf.RankLoad
	cfg.Step = func(loads []perf.RankLoad) float64 {
		buf = buf[:0]
		for _, x := range loads {
			buf = append(buf, admitted(x))
		}
		runs[0].Loads = buf
		return u.sm.StepRunsMemo(runs, &memo).TotalS
	}
	if cfg.DPWave {
		cfg.DummyStep = sim.DummyStepFor(u.sm) // a wave's dummy batch, graphed or eager as the release runs it
	}
	res = sim.Replicate(cfg, simReplications)
	if extra := sessions - cfg.Sessions; extra > 0 {
		if r := res.OutputTokPerS / float64(max(1, out)); r > 0 {
			extraWaitS = float64(extra) / r
		}
	}
	scale := float64(u.copies)
	if UseDecodeTimeAway && l.pool <= 0 && sessions > 0 {
		// The copies run l.sessions in all, not copies × their ceiling
		// share: one session on a pool of three instances is one
		// session's rate, not three (Little's law, TestClosedLoopLittle).
		scale = float64(l.sessions) / float64(sessions)
	}
	res.OutputTokPerS *= scale
	res.TotalTokPerS *= scale
	res.MeanRunning *= scale
	res.MeanWaiting *= scale
	return res, extraWaitS, true
}

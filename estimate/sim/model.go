package sim

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// Bounds on the work of one simulated scenario (RunModel). They do not
// depend on the deployment's size or load: a large deployment's ranks are
// statistically alike, so a few representative ranks stand for all of them, and
// sessions that can only queue are accounted for by Little's law instead
// of being simulated one by one.
const (
	// MaxRepRanks is how many lock-step DP ranks are simulated; a larger
	// DP tiles them over the cluster (perf.RankRun), so each simulated
	// rank stands for DP/K ranks. Tiling copies a rank's prefills onto its
	// copies at the same steps, so with few requests per rank it
	// understates how often some rank of the cluster is prefilling (and
	// slowing the lock-step): deployments up to 128 DP ranks, the large
	// ones people run, are simulated rank by rank.
	MaxRepRanks = 128
	// MaxSimSessions bounds the sessions simulated in all (the simulator's
	// cost per event grows with them).
	MaxSimSessions = 1024
	// queueSlots is how many sessions per sequence that can run at once
	// are simulated: enough to keep every batch full with a queue behind
	// it; further sessions only wait longer in the FIFO queue.
	queueSlots = 2
	// overloadQueue bounds an open loop's queue, per sequence that can run
	// at once, before the run stops as overloaded.
	overloadQueue = 50
	// simWork bounds (warm-up + measured requests) × simulated sessions
	// over a scenario's replications: the simulator's work is about that
	// many request-steps (a tenth of a second or so on one core).
	simWork = 20_000_000
	// Replications of a scenario: each measures simRequestsPerRun
	// requests (or two per simulated session, if more) after its warm-up;
	// see sizeRuns.
	simRequestsPerRun  = 1000
	simReplications    = 32
	simReplicationsMin = ReplicationsMin
	// StepBudget bounds a scenario's replications by what they cost:
	// rank-steps (step-model calls × simulated ranks), about 0.1 µs each.
	// The reference's 32 runs spend a few per cent of it; a deployment
	// with a hundred busy ranks and an event every few steps stops after
	// four or five runs.
	StepBudget = 4_000_000
)

// RunModel runs the simulation on the step model sm (the Step of cfg is
// sm.StepSeconds) for a deployment (check's scenarios, and calibrate's
// replays of benchmark runs), with bounded work whatever the deployment
// and its load (see planSim). Speculative decoding is taken from the step
// model when cfg does not set it.
func RunModel(sm *perf.StepModel, cfg Config) Result { return RunModelReplicated(sm, cfg, 1) }

// RunModelReplicated is RunModel in reps independent replications
// (Replicate; 0 = as many as the work budget allows, see sizeRuns).
// cfg.Requests 0 sizes the runs too. A deployment of independent replicas
// (sm.S.Replicas) is simulated on one of them (perReplica).
func RunModelReplicated(sm *perf.StepModel, cfg Config, reps int) Result {
	if cfg.Spec.Drafts == 0 && sm.S.SpecTokens > 0 {
		cfg.Spec = Speculation{Drafts: sm.S.SpecTokens, Accept: sm.S.SpecAcceptPerPosition()}
	}
	cfg, scale := perReplica(cfg, sm.S.Replicas)
	p := planSim(sm, cfg)
	p.cfg.Requests, reps = sizeRuns(p.cfg, cfg.Requests, reps)
	if reps > 1 && p.cfg.WorkBudget == 0 {
		p.cfg.WorkBudget = StepBudget
	}
	return forReplicas(p.scaleBack(Replicate(p.cfg, reps)), scale)
}

// sizeRuns chooses the replications and the requests they measure in all,
// where the caller left them 0: each run measures simRequestsPerRun
// requests (or two per simulated session, if more) after its warm-up, and
// there are as many runs, between simReplicationsMin and simReplications,
// as keep (warm-up + measured requests) × simulated sessions, the
// simulator's work, within simWork. A closed loop's run measures whole
// turns of it (a multiple of its sessions, each finishing once a turn):
// a window that ends partway through a turn of a fixed-length loop
// catches its completions at one phase of their cycle, and its requests'
// latencies and its time averages then disagree (deepseek-r1-8xh200-burst
// at 256 sessions, 1,000 requests a run: Little's law −3.8% on every
// seed; 1,024, +1.6%). A caller that names the requests gets one run per
// simRequestsPerRun of them.
func sizeRuns(cfg Config, requests, reps int) (int, int) {
	seqs := max(1, cfg.Sessions)
	if cfg.Sessions == 0 {
		seqs = max(1, cfg.MaxWaiting/overloadQueue)
	}
	perRun := max(simRequestsPerRun, 2*cfg.Sessions)
	if cfg.Sessions > 0 && cfg.Pool == 0 { // whole turns of the loop
		perRun = (perRun + cfg.Sessions - 1) / cfg.Sessions * cfg.Sessions
	}
	switch {
	case reps > 0:
	case requests > 0: // runs of simRequestsPerRun, however many that makes
		reps = max(1, min(simReplications, requests/simRequestsPerRun))
	default:
		reps = simWork / ((cfg.Warmup + perRun) * seqs)
		reps = max(simReplicationsMin, min(simReplications, reps))
	}
	if requests <= 0 {
		requests = reps * perRun
	}
	return requests, reps
}

// simPlan is a scenario reduced to bounded work, and how to read the
// reduced run as the deployment's.
type simPlan struct {
	cfg Config
	// copies is how many deployment ranks one simulated rank stands for
	// (the step model tiles the simulated ranks that many times; the rest
	// of the ranks idle): throughput and queue lengths are multiplied by it.
	copies int
	// extraSessions are closed-loop sessions of the simulated ranks' share
	// that are not simulated: they only wait in the FIFO queue, adding
	// extraSessions / (completions per second) to every request's wait.
	extraSessions float64
}

// planSim reduces cfg:
//   - dense models run independent engines per DP rank (IndependentRanks):
//     up to MaxRepRanks of them, each on its own clock (Config.Independent)
//     behind the deployment's front end and DP load balancer, with their
//     share; with UseIndependentDP off, one rank with its share (the
//     fullest rank's ceil share of sessions, 1/DP of the rate);
//   - MoE ranks step in lock-step: up to MaxRepRanks representative ranks
//     with their share, tiled over the cluster by the step model;
//   - closed-loop sessions beyond queueSlots per sequence that can run at
//     once, and beyond MaxSimSessions in all, wait analytically;
//   - an open loop stops once its queue outgrows overloadQueue per
//     sequence that can run (Result.Overloaded);
//   - a client cap (Config.ClientCap) is shared like a pool: the ceil of
//     the simulated ranks' share. The client's one semaphore spans every
//     rank, so a share of it is an approximation, as the share of a
//     gamma stream (Config.Burstiness) is: only Poisson arrivals split
//     exactly.
func planSim(sm *perf.StepModel, cfg Config) simPlan {
	dp := max(1, cfg.DP)
	lockstep := LockStep(sm.S.Model.IsMoE(), dp)
	independent := IndependentRanks(sm.S.Model.IsMoE(), dp)
	slots := RunSlots(cfg) // per rank
	limit := MaxRepRanks
	if cfg.Sessions > 0 { // keep the simulated sessions within MaxSimSessions
		perRank := min(queueSlots*slots, (cfg.Sessions+dp-1)/dp)
		limit = max(1, MaxSimSessions/max(1, perRank))
	}
	tp, g := max(1, sm.S.TP), max(1, sm.S.HW.GPUsPerNode)
	k := 1
	switch {
	case lockstep && cfg.Sessions > 0 && cfg.Sessions < dp && cfg.ThinkS == 0:
		// (Sessions with think time do not keep a rank each busy: the
		// general plan stands for them.)
		return planFewSessions(sm, cfg, busyRanks(min(cfg.Sessions, limit, MaxRepRanks), cfg.Sessions, tp, g))
	case lockstep, independent:
		k = repRanks(dp, tp, g, limit)
	}
	p := simPlan{cfg: cfg, copies: dp / k}
	p.cfg.Independent = independent && k > 1
	p.cfg.DP, p.cfg.DPLB = k, cfg.DPLB.Reduced(k, dp)
	switch {
	case cfg.Sessions > 0:
		p.planSessions(dp, k, slots)
	default:
		p.cfg.ArrivalRatePerS = cfg.ArrivalRatePerS * float64(k) / float64(dp)
		if cfg.ClientCap > 0 { // the ceil of the simulated ranks' share
			p.cfg.ClientCap = max(1, int(math.Ceil(float64(cfg.ClientCap)*float64(k)/float64(dp))))
		}
		p.cfg.MaxWaiting = max(1000, overloadQueue*slots*k)
	}
	if cfg.Pool > 0 {
		p.cfg.Pool = max(1, int(math.Ceil(float64(cfg.Pool)*float64(k)/float64(dp))))
		p.cfg.Requests = min(p.cfg.Requests, p.cfg.Pool)
		p.cfg.MaxWaiting = 0 // a finite run's queue drains, whatever the rate
	}
	p.cfg.Step, p.cfg.StepPasses = tiledStep(sm, k, p.copies, lockstep), sm.Passes()
	p.cfg.DummyStep = tiledDummyStep(sm, k, p.copies, lockstep)
	return p
}

// SimulatedRanks is how many DP ranks (lock-step, or independent engines)
// RunModel simulates for cfg
// on sm (of one replica), and whether they are the busy ranks of a closed
// loop with fewer sessions than ranks (one session each, the other ranks
// idle) rather than representatives tiled over all of them.
func SimulatedRanks(sm *perf.StepModel, cfg Config) (ranks int, fewSessions bool) {
	cfg, _ = perReplica(cfg, sm.S.Replicas)
	dp := max(1, cfg.DP)
	return planSim(sm, cfg).cfg.DP, LockStep(sm.S.Model.IsMoE(), dp) && cfg.Sessions > 0 && cfg.Sessions < dp
}

// planFewSessions plans a lock-step closed loop with fewer sessions than
// DP ranks: the DP coordinator gives each session a rank of its own, so k
// busy ranks of one session each are simulated and tiled over as many
// ranks as there are sessions; the other ranks idle.
func planFewSessions(sm *perf.StepModel, cfg Config, k int) simPlan {
	p := simPlan{cfg: cfg, copies: max(1, int(math.Round(float64(cfg.Sessions)/float64(k))))}
	p.cfg.DP, p.cfg.Sessions, p.cfg.DPLB = k, k, cfg.DPLB.Reduced(k, cfg.DP)
	p.cfg.Warmup = min(p.cfg.Warmup, max(100, 2*k))
	p.cfg.Step, p.cfg.StepPasses = tiledStep(sm, k, p.copies, true), sm.Passes()
	p.cfg.DummyStep = tiledDummyStep(sm, k, p.copies, true)
	return p
}

// busyRanks is the largest k ≤ n whose ranks fill whole nodes (or a whole
// fraction of one), so that tiling them gives every busy node the same
// mix, and whose whole copies stand for the sessions within 5% (the
// largest aligned k when none does).
func busyRanks(n, sessions, tp, g int) int {
	aligned := 0
	for k := n; k > 1; k-- {
		if (k*tp)%g != 0 && g%(k*tp) != 0 {
			continue
		}
		if aligned == 0 {
			aligned = k
		}
		copies := max(1, int(math.Round(float64(sessions)/float64(k))))
		if math.Abs(float64(copies*k-sessions)) <= 0.05*float64(sessions) {
			return k
		}
	}
	return max(1, aligned)
}

// planSessions gives the k simulated ranks their share of the sessions
// (the ceil of it) and the number of copies that stand for the sessions
// as closely as whole copies can. Beyond queueSlots per sequence that can
// run at once (and MaxSimSessions in all) sessions only queue: they wait
// analytically, unless a benchmark's pool must be run through.
func (p *simPlan) planSessions(dp, k, slots int) {
	total := float64(p.cfg.Sessions)
	share := total * float64(k) / float64(dp)
	simulated := max(1, int(math.Ceil(share)))
	p.copies = max(1, min(dp/k, int(math.Round(total/float64(simulated)))))
	limit := min(MaxSimSessions, max(k, queueSlots*slots*k))
	if p.cfg.Pool == 0 && simulated > limit {
		p.extraSessions = share - float64(limit)
		simulated = limit
	}
	p.cfg.Sessions = simulated
	p.cfg.Warmup = min(p.cfg.Warmup, max(100, 2*simulated))
}

// scaleBack reads the reduced run as the deployment's: throughput and
// queue lengths times copies; the analytic FIFO wait of the sessions not
// simulated added to every request's TTFT and end-to-end time, and to the
// engine queue's part of TTFT (TTFTParts.QueueS), where those sessions
// wait: the parts add up to the mean TTFT they decompose.
func (p simPlan) scaleBack(res Result) Result {
	if p.extraSessions > 0 && res.OutputTokPerS > 0 {
		perS := res.OutputTokPerS / float64(max(1, p.cfg.OutputTokens)) // completions/s of the simulated ranks
		wait := p.extraSessions / perS
		shift(&res, wait)
		res.TTFTParts.QueueS += wait
		res.MeanWaiting += p.extraSessions
	}
	c := float64(p.copies)
	res.OutputTokPerS *= c
	res.TotalTokPerS *= c
	res.MeanRunning *= c
	res.MeanWaiting *= c
	res.MeanKVWaiting *= c
	return res
}

// shift adds a queueing delay to every request's TTFT and end-to-end time
// (the caller says which part of TTFT it is: scaleBack's is the queue's).
func shift(res *Result, d float64) {
	for _, pc := range []*Percentiles{&res.TTFT, &res.E2E} {
		pc.Mean += d
		pc.P50 += d
		pc.P90 += d
		pc.P95 += d
		pc.P99 += d
	}
	for i := range res.TTFTQuantiles {
		if res.TTFTQuantiles[i] > 0 {
			res.TTFTQuantiles[i] += d
		}
	}
	for _, iv := range []*Interval{&res.TTFTCI.P50, &res.TTFTCI.P90, &res.TTFTCI.P95, &res.TTFTCI.P99} {
		if iv.Hi > 0 {
			iv.Lo += d
			iv.Hi += d
		}
	}
}

// RunSlots is how many sequences one rank can run at once: max_num_seqs,
// or fewer when the KV cache holds fewer whole requests.
func RunSlots(cfg Config) int {
	slots := max(1, cfg.MaxNumSeqs)
	if cfg.KVTokensPerRank > 0 {
		slots = min(slots, max(1, MaxRunning(cfg, cfg.InputTokens+cfg.OutputTokens)))
	}
	return slots
}

// repRanks is how many lock-step ranks to simulate for dp ranks of tp GPUs
// on nodes of g GPUs: all of them up to limit (at most MaxRepRanks);
// beyond, the largest k that divides dp and whose ranks fill whole nodes
// (or a whole fraction of one), so that tiling them gives every node the
// same mix.
func repRanks(dp, tp, g, limit int) int {
	limit = min(limit, MaxRepRanks)
	if dp <= limit {
		return dp
	}
	for k := limit; k > 1; k-- {
		if dp%k == 0 && ((k*tp)%g == 0 || g%(k*tp) == 0) {
			return k
		}
	}
	return 1
}

// tiledStep is the step function for k simulated ranks, each standing for
// copies ranks: lock-step ranks are tiled over the cluster (perf.RankRun,
// the rest idle); independent (dense) engines are one rank of a DP-1
// deployment (RankStep), called with one rank's load.
func tiledStep(sm *perf.StepModel, k, copies int, lockstep bool) func([]perf.RankLoad) float64 {
	switch {
	case !lockstep && sm.S.DP > 1:
		sm, copies = RankStep(sm), 1
	case !lockstep || (k == sm.S.DP && copies == 1):
		copies = 1
	}
	// The memo keeps what depends only on the ranks' token counts across
	// the steps of a steady stretch (the closure serves one run at a time).
	runs := []perf.RankRun{{N: copies}}
	var memo perf.StepMemo
	return func(loads []perf.RankLoad) float64 {
		runs[0].Loads = loads
		return sm.StepRunsMemo(runs, &memo).TotalS
	}
}

// tiledDummyStep is tiledStep for a DP wave's dummy step (the step
// model's DummyStepRuns), for lock-step ranks with UseEagerDummyStep on;
// nil otherwise (the simulator then prices it with Step).
func tiledDummyStep(sm *perf.StepModel, k, copies int, lockstep bool) func([]perf.RankLoad) float64 {
	if !UseEagerDummyStep || !lockstep {
		return nil
	}
	runs := []perf.RankRun{{N: copies}}
	return func(loads []perf.RankLoad) float64 {
		runs[0].Loads = loads
		return sm.DummyStepRuns(runs).TotalS
	}
}

// DummyStepFor is Config.DummyStep for a step model whose Step is
// sm.StepSeconds (every DP rank given its own load): the step model's
// DummyStepRuns with UseEagerDummyStep on, nil otherwise.
func DummyStepFor(sm *perf.StepModel) func([]perf.RankLoad) float64 {
	if !UseEagerDummyStep {
		return nil
	}
	return func(loads []perf.RankLoad) float64 {
		return sm.DummyStepRuns([]perf.RankRun{{Loads: loads, N: 1}}).TotalS
	}
}

// Saturated is cfg as a closed loop that keeps every one of dp ranks'
// batches full (queueSlots sessions per sequence that can run): its
// throughput is the most the deployment sustains with these requests.
func Saturated(cfg Config, dp int) Config {
	sat := cfg
	sat.ArrivalRatePerS = 0
	sat.Sessions = queueSlots * RunSlots(cfg) * max(1, dp)
	sat.Requests = 2 * simRequestsPerRun
	sat.Warmup = 100
	return sat
}

// Overloaded is the result of an open loop above capacity, given the
// saturated run (Saturated): its throughput and TPOT, and no TTFT or
// end-to-end time (they grow for as long as the arrivals go on).
func Overloaded(capacity Result) Result {
	res := capacity
	res.Overloaded = true
	res.TTFT, res.E2E, res.TTFTCI = Percentiles{}, Percentiles{}, PercentileCIs{}
	res.TTFTQuantiles = [CDFPoints]float64{}
	return res
}

package sim

import (
	"math"
	"slices"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// Interval is a two-sided 95% confidence interval, in seconds.
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// ReplicationsMin is the fewest replications Replicate runs, whatever the
// work budget: a confidence interval from fewer is too wide to say much.
const ReplicationsMin = 4

// PercentileCIs are the confidence intervals of a distribution's reported
// percentiles.
type PercentileCIs struct {
	P50 Interval `json:"p50_s"`
	P90 Interval `json:"p90_s"`
	P95 Interval `json:"p95_s"`
	P99 Interval `json:"p99_s"`
}

// stepCallRankSteps is what one call of the step model costs beyond its
// ranks, in rank-steps: the terms a step computes once (experts,
// network, host) and the simulator's bookkeeping around it. A one-rank
// engine's step costs about 0.5 µs, not the 0.1 µs of a rank among a
// hundred (profiles of check, 2026-12-03).
const stepCallRankSteps = 4

// seqUpdatesPerRankStep is how many updates of a running sequence by the
// simulator count as one rank-step of the step model in a work budget: an
// update costs about 35 ns, a rank-step 0.1–0.25 µs (profiles of check on
// 10,000 lock-step ranks, 2026-12-03): 4, so
// the budget binds a run of many sessions only far beyond what checks of
// ordinary deployments spend (the reference: 2.4 M updates per scenario).
const seqUpdatesPerRankStep = 4

// rankStepsPerPoolRequest is what one request of a finite run (Pool)
// counts for in a work budget, beyond the steps and updates counted: its
// arrival, queueing and completion cost about 10 µs in a long queue (a run
// of 20,000 requests at 200 in flight, 2026-12-03), some 50 rank-steps.
const rankStepsPerPoolRequest = 50

// minReplications is the replications a run gets whatever its cost:
// ReplicationsMin, and fewer (down to 2, an interval still) for a budget
// below StepBudget — a check's share when many scenarios split it
// (slo.simulateScenarios), whose floor of runs would otherwise set its
// cost.
func minReplications(budget int64) int {
	if budget <= 0 || budget >= StepBudget {
		return ReplicationsMin
	}
	return max(2, int(int64(ReplicationsMin)*budget/StepBudget))
}

// replicaSeedStep separates the seeds of replications (the 64-bit golden
// ratio, so consecutive seeds' replications do not overlap).
const replicaSeedStep = 0x9e3779b97f4a7c15

// Replicate runs cfg r times as independent replications (seeds cfg.Seed,
// cfg.Seed+step, ...; each with its own warm-up and its share of
// cfg.Requests, or the whole of a finite run's Pool) and combines them; each TTFT and TPOT percentile gets a
// 95% confidence interval from the spread of the replications' own
// estimates (Student's t with r-1 degrees of freedom over √r). A closed loop's
// percentiles depend on how its sessions happen to fall into step with one
// another, which a single run cannot show; replications do. The first
// replication is Run(cfg) with its share of the requests. r < 2 is Run.
// Work is counted in rank-steps (per step-model call, its simulated ranks
// and stepCallRankSteps, times the evaluations a call makes,
// cfg.StepPasses; a deterministic measure) and, for the
// simulator's own bookkeeping, in running sequences updated
// (seqUpdatesPerRankStep of them count as one rank-step). With
// cfg.WorkBudget set, each of the first minReplications replications stops
// measuring once it has spent its share of WorkBudget and measured
// MinMeasured requests (a deployment whose steps are costly gets fewer
// requests, and a wider interval, rather than a longer check), and no
// more start, past those, once WorkBudget is spent. A finite
// run (Pool) is not cut short at its share — its figures are of the whole
// run — and one that alone spends a replication's share is the only run
// (no interval). Any run ends at WorkCeiling shares, whatever it measured
// (Result.Truncated), except a closed loop's first replication that has
// measured nothing by then: the replications after it would end alike, so
// it becomes the only run, with the whole WorkBudget as its share (its
// ceiling WorkCeiling × WorkBudget, what the ReplicationsMin runs cut at
// theirs spend in all: a check's worst case stays as it was). A loop of
// 2,048 sessions of 4,000 output tokens on 64 lock-step GPUs completes its
// first turn only after about two of its shares.
// Throughput and queue lengths pool the runs; the percentiles are the
// means of the runs' own (see across), the distribution TTFTQuantiles that
// of every request together.
func Replicate(cfg Config, r int) Result {
	if r < 2 && cfg.WorkBudget <= 0 {
		return Run(cfg)
	}
	r = max(1, r)
	per := cfg
	per.Requests = (max(1, cfg.Requests) + r - 1) / r
	// A finite run (Pool) is replicated whole: a burst of N prompts is one
	// benchmark run, and N/r prompts would be another run (a shorter
	// queue), not a share of it.
	var work int64
	step := cfg.Step
	passes := int64(max(1, cfg.StepPasses))
	per.Step = func(l []perf.RankLoad) float64 { work += passes * (int64(len(l)) + stepCallRankSteps); return step(l) }
	var ss []*simulator
	var reps []Result
	var seqWork int64
	within := func() bool {
		return work < cfg.WorkBudget && seqWork < cfg.WorkBudget*seqUpdatesPerRankStep &&
			int64(cfg.Pool)*int64(len(ss))*rankStepsPerPoolRequest < cfg.WorkBudget
	}
	minReps := minReplications(cfg.WorkBudget)
	share := cfg.WorkBudget / int64(min(minReps, r))
	var buf *simBuffers // the last replication's queues
	for i := 0; i < r && (i < minReps || cfg.WorkBudget <= 0 || within()); i++ {
		per.Seed = cfg.Seed + uint64(i)*replicaSeedStep
		s := newSimulatorIn(per, buf)
		if cfg.WorkBudget > 0 {
			start, runShare := work, share
			s.enough = func(frac float64) bool {
				limit := max(1, int64(frac*float64(runShare))) // a run takes a step whatever its share
				return work-start >= limit || s.seqWork >= limit*seqUpdatesPerRankStep
			}
			if i == 0 && cfg.Pool == 0 && share < cfg.WorkBudget {
				s.widen = func() bool { runShare = cfg.WorkBudget; return true }
			}
		}
		s.run()
		s.keepTTFT = true // pooledWith merges the runs' sorted TTFTs
		seqWork += s.seqWork
		ss, reps = append(ss, s), append(reps, s.result())
		buf = s.buffers()
		s.shed()
		if i == 0 && cfg.Pool > 0 && cfg.WorkBudget > 0 && (work >= share || seqWork >= share*seqUpdatesPerRankStep) {
			minReps = 1 // a finite run is measured whole; one that alone spends a share is the only one
		}
		if s.widened {
			break // it spent the budget the others would have had (at most all of their ceilings)
		}
	}
	spent := max(work, seqWork/seqUpdatesPerRankStep) // the measure the budget binds on
	if len(reps) == 1 {
		reps[0].Replications, reps[0].Work = 1, spent
		return reps[0]
	}
	// A replication its work ceiling ended before it measured anything has
	// no percentiles to average (zeros would pull the means down); with
	// fewer than two measured ones, the pooled figures stand, without an
	// interval.
	measured := slices.DeleteFunc(reps, func(r Result) bool { return r.Requests == 0 })
	res := pooledWith(ss, len(measured) < 2) // else the means below replace its latencies
	res.Replications, res.Work = len(ss), spent
	if len(measured) < 2 {
		return res
	}
	res.TTFT, res.TTFTCI = across(measured, func(x Result) Percentiles { return x.TTFT })
	res.TPOT, res.TPOTCI = across(measured, func(x Result) Percentiles { return x.TPOT })
	res.E2E, _ = across(measured, func(x Result) Percentiles { return x.E2E })
	res.TTFTParts = meanParts(measured)
	return res
}

// meanParts is the mean over replications of their TTFT parts, so that
// the parts add up to the mean TTFT as across estimates it.
func meanParts(reps []Result) TTFTParts {
	var p TTFTParts
	for _, r := range reps {
		p.FrontendS += r.TTFTParts.FrontendS
		p.QueueS += r.TTFTParts.QueueS
		p.PrefillS += r.TTFTParts.PrefillS
		p.PromptS += r.TTFTParts.PromptS
	}
	n := float64(len(reps))
	return TTFTParts{FrontendS: p.FrontendS / n, PromptS: p.PromptS / n, QueueS: p.QueueS / n, PrefillS: p.PrefillS / n}
}

// across estimates each percentile as the mean of the replications' own
// estimates, with its 95% confidence interval (Student's t over √r). The
// mean is stable where one pooled order statistic is not: with identical
// requests the latencies come in waves, and a percentile of all of them
// jumps from one wave to the next with a small change in the counts.
func across(reps []Result, f func(Result) Percentiles) (Percentiles, PercentileCIs) {
	est := func(g func(Percentiles) float64) (float64, Interval) {
		var sum, sq float64
		for _, r := range reps {
			x := g(f(r))
			sum += x
			sq += x * x
		}
		n := float64(len(reps))
		mean := sum / n
		sd := math.Sqrt(max(0, sq/n-mean*mean) * n / (n - 1))
		h := studentT975(len(reps)-1) * sd / math.Sqrt(n)
		return mean, Interval{Lo: max(0, mean-h), Hi: mean + h}
	}
	var p Percentiles
	var ci PercentileCIs
	p.Mean, _ = est(func(p Percentiles) float64 { return p.Mean })
	p.P50, ci.P50 = est(func(p Percentiles) float64 { return p.P50 })
	p.P90, ci.P90 = est(func(p Percentiles) float64 { return p.P90 })
	p.P95, ci.P95 = est(func(p Percentiles) float64 { return p.P95 })
	p.P99, ci.P99 = est(func(p Percentiles) float64 { return p.P99 })
	return p, ci
}

// studentT975 is the 97.5% quantile of Student's t with df degrees of
// freedom (two-sided 95%), from the standard table; 1.96 beyond 30.
func studentT975(df int) float64 {
	table := []float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	switch {
	case df < 1:
		return math.Inf(1)
	case df <= len(table):
		return table[df-1]
	}
	return 1.96
}

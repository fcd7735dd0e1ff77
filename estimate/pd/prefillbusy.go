package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/sim"
)

// UsePrefillQueueReason reads the prefill pool's busy time and its
// queue's reason from its simulation (Scenario.PrefillQueue, QA session
// 38: a lock-step DP 8 prefill pool "25% utilised" whose queue, 990 ms,
// exceeded the prefill itself, 742 ms, with no reason given). Off: no
// PrefillQueue; the figures are unchanged either way.
var UsePrefillQueueReason = true

// Queue reasons of the prefill pool (PrefillQueue.Reason).
const (
	// QueueLockStep: the prompt's rank had room in its token budget, and
	// it waited for the step its lock-step group was in (a rank with no
	// prompt runs vLLM's DP wave dummy step in step with the others, and
	// the hosts may have launched dummy passes ahead: sim.Config.DPWave,
	// WaveRunAhead).
	QueueLockStep = "lock-step wait"
	// QueueStepInFlight: one engine (no lock-step group) with room in its
	// token budget: the prompt waited for the step in flight to end.
	QueueStepInFlight = "the step in flight"
	// QueueBehindPrompts: the rank's token budget (max_num_batched_tokens)
	// or its sequences were taken by the prompts ahead of it.
	QueueBehindPrompts = "queueing behind other prompts"
)

// PrefillQueue explains the prefill pool's queue from its own simulation
// (the run the scenario's TTFT parts come from).
type PrefillQueue struct {
	// BusyFraction is the share of time the pool is stepping (a lock-step
	// group steps while any rank has a prompt, the others in dummy steps,
	// and through a DP wave's tail): the simulated steps' time over the
	// measured span. Utilization (the scenario's) counts filled token
	// slots instead: prompts per second over what steps full of
	// max_num_batched_tokens prompt tokens on every rank serve.
	BusyFraction float64 `json:"busy_fraction"`
	// MeanStepS is the pool's mean step; QueueSteps the steps a prompt
	// waited through on average (the one in flight when it arrived
	// included: sim.TTFTSteps).
	MeanStepS  float64 `json:"mean_step_s"`
	QueueSteps float64 `json:"queue_steps"`
	// PromptsPerRank is the prompts a rank held (running and waiting)
	// while the pool stepped; BudgetPrompts how many of the workload's
	// prompts a rank's token budget (and max_num_seqs) schedules in one
	// step.
	PromptsPerRank float64 `json:"prompts_per_rank"`
	BudgetPrompts  int     `json:"budget_prompts"`
	// LockStep marks a pool whose DP ranks step together (a MoE model
	// with DP > 1: sim.LockStep).
	LockStep bool `json:"lock_step"`
	// Reason names what the queue waits for (QueueLockStep,
	// QueueStepInFlight, QueueBehindPrompts; "" without a queue).
	Reason string `json:"reason,omitempty"`
}

// prefillQueue reads the prefill run pr (closed loop of load l, at
// prompts of n tokens) as PrefillQueue. The pool's time stepping is the
// simulated group's steps (sim.Result.Steps × MeanStepS, in the ranks
// RunModel simulated) over the span its measured requests took: their
// count over their rate in the simulated ranks, the pool's rate divided by
// the copies RunModel scaled it by (simCopies). It is nil when the run
// measured nothing, or when the copies cannot be read (a lock-step loop
// of fewer sessions than ranks, which RunModel runs on the busy ranks
// alone).
func prefillQueue(p *Pool, n int, l load, pr sim.Result, seed uint64) *PrefillQueue {
	if pr.Requests <= 0 || pr.Steps <= 0 || pr.OutputTokPerS <= 0 || pr.Overloaded {
		return nil
	}
	cfg := prefillConfig(p, n, l, seed) // as simPrefill ran it
	c, ok := simCopies(p, cfg)
	if !ok {
		return nil
	}
	span := float64(pr.Requests) / (pr.OutputTokPerS / c) // one output token per prefill request
	q := &PrefillQueue{MeanStepS: pr.MeanStepS, QueueSteps: pr.TTFTSteps.QueueSteps,
		LockStep: sim.LockStep(p.sm.S.Model.IsMoE(), max(1, p.DP))}
	q.BusyFraction = min(1, float64(pr.Steps)*pr.MeanStepS/span)
	if q.BusyFraction > 0 {
		q.PromptsPerRank = (pr.MeanRunning + pr.MeanWaiting) / float64(p.ranks()) / q.BusyFraction
	}
	budget := max(1, p.in.MaxNumBatchedTokens) / max(1, n)
	if p.in.MaxNumSeqs > 0 {
		budget = min(budget, p.in.MaxNumSeqs)
	}
	q.BudgetPrompts = budget
	switch {
	case pr.TTFTParts.QueueS <= 0:
	case q.PromptsPerRank >= float64(max(1, budget)):
		q.Reason = QueueBehindPrompts
	case q.LockStep:
		q.Reason = QueueLockStep
	default:
		q.Reason = QueueStepInFlight
	}
	return q
}

// simCopies is how many of the pool's engines (or lock-step ranks) one
// simulated one stands for in sim.RunModel's run of cfg: the replicas'
// (sim.perReplica: the sessions over one replica's ceiling share) times
// the tiled ranks' (sim.planSessions, rate: DP ÷ the simulated ranks).
// ok is false for a lock-step closed loop of fewer sessions than ranks.
func simCopies(p *Pool, cfg sim.Config) (float64, bool) {
	k, few := sim.SimulatedRanks(p.sm, cfg)
	if few || k <= 0 {
		return 0, false
	}
	r := max(1, p.sm.S.Replicas)
	scale := float64(r)
	sessions := cfg.Sessions
	if sessions > 0 && r > 1 {
		share := (sessions + r - 1) / r
		scale, sessions = float64(sessions)/float64(share), share
	}
	dp := max(1, cfg.DP)
	copies := dp / k
	if sessions > 0 {
		simulated := max(1, int(math.Ceil(float64(sessions)*float64(k)/float64(dp))))
		copies = max(1, min(dp/k, int(math.Round(float64(sessions)/float64(simulated)))))
	}
	return scale * float64(copies), true
}

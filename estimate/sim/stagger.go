package sim

import "github.com/vlaunch/vlaunch/estimate/perf"

// SessionCycle is how long one session of a steady closed loop takes a
// request at the load that runs, prefills included: TrainCycle on one
// engine (of sm.S.DP × replicas) holding its share of the sessions that
// can run at once (RunSlots; sessions queued beyond them do not stretch
// the batches' steps). A steady closed loop spreads its sessions' first
// requests over at least this (Config.StaggerS), so that they start at
// random phases of one whole cycle. Zero for DP ranks in lock-step (an
// MoE's, LockStep): one rank's step model (RankStep) does not price their
// steps, which wait for each other (the DeepSeek-R1 GB200 NVL72 example's
// DP 32 read a 123-s cycle for a 55-s one), so those keep the caller's
// spread; as FixedLoopStates leaves them out.
//
// Why not the decode steps alone: a closed loop of identical requests and
// no think time keeps the phases it starts with (every request of a
// session takes the same time, so the sessions return in the order and
// at the spacing they left; prompts queued together are prefilled in one
// step, decode together and come back together, so clumps merge and never
// split). A spread of out decode steps leaves out the other sessions'
// prefill steps interleaved with them: the Llama-3.3-70B FP8 TP8 PCIe
// check (128 sessions, 2000/500) spread its sessions over 15.6 s of a
// 41.6-s cycle, and every run froze that start-up clump into a queue of
// four-prompt cohorts: TTFT 2.54 s at p50, p90 and p99 alike, on every
// seed; spread over the cycle its seeds measure a p50 of 0.85 s and a p99
// of 2.0 s (lock42).
func SessionCycle(sm *perf.StepModel, cfg Config) float64 {
	if sm == nil || cfg.Sessions <= 0 {
		return 0
	}
	if moe := sm.S.Model != nil && sm.S.Model.IsMoE(); LockStep(moe, max(1, sm.S.DP)) {
		return 0
	}
	engines := max(1, sm.S.DP) * max(1, sm.S.Replicas)
	running := min(cfg.Sessions, engines*RunSlots(cfg))
	n := (running + engines - 1) / engines
	return TrainCycle(RankStep(sm), max(1, n), max(1, cfg.InputTokens), max(1, cfg.OutputTokens), max(1, cfg.MaxNumBatchedTokens))
}

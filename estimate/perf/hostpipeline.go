package perf

// UseMultiprocHostPipeline (trial) takes the host chain of an
// async-scheduling vLLM step with worker processes (TP × PP > 1, the
// multiprocess executor) as two stages that run side by side, not one
// after the other: the engine-core process's scheduling and output
// processing (StepOverheadS and the per-sequence loops) and the workers'
// hand-off (MultiprocStepS). With async scheduling the engine core
// schedules step N+2 while the workers prepare and launch step N+1
// (vllm/facts_async_overlap.go: the batch queue of two; the workers take
// step N+1's sampled ids on the GPU, prev_sampled_token_ids, so they need
// nothing back from the engine core before launching), so a step's host
// floor is the longer stage, not their sum. This is the most overlap the
// two constants allow: how StepOverheadS's work splits between the engine
// core and the workers was not measured.
var UseMultiprocHostPipeline = false

// pipelinedHost reports whether the setup's host chain runs as two
// overlapping stages (UseMultiprocHostPipeline).
func (s *StepSetup) pipelinedHost() bool {
	return UseMultiprocHostPipeline && s.OverlapHost && s.TP*s.PP > 1 && !s.SGLang
}

// Measured on (session 42, everything else as on main, docs regenerated):
// holdout 447 -> 428 of 647 within ±30%; dense throughput 104 -> 87 of
// 116 (median 17% -> 19%), dense TPOT 111 -> 108 of 115 (10% -> 12%);
// MoE TPOT 70 -> 75 of 79, MoE throughput 62 -> 63 of 81; calibration 202
// of 220, aiconfigurator 111 of 141 and the anchors unchanged. The dense
// TP 4/8 closed loops on 0.15 (scicom) turn too fast: the summed host
// chain had been standing in for GPU time the step lacks there (the
// ~1 ms a step session 41 found unexplained), so pipelining the host is
// not adopted until that GPU time is priced.

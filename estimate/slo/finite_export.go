package slo

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// FiniteRun sets cfg's load to the workload's finite run
// (workload.burst_requests: a benchmark's --num-prompts), as check
// simulates it (burstLoad): calibrate replays every benchmark result
// through it, so that a run of N prompts is predicted as the run it was,
// ramp-down included, and never as a steady state.
func FiniteRun(in *input.Input, cfg *sim.Config) { burstLoad(in, cfg) }

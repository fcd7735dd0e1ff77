package sim

import "github.com/vlaunch/vlaunch/estimate/perf"

// RunModel runs the simulation on the step model sm (the Step of cfg is
// sm.StepSeconds) for a deployment (check's scenarios, and
// calibrate's replays of benchmark runs). Only MoE models step their DP
// ranks in lock-step (the experts need every rank's tokens); dense DP
// ranks are independent engines, so one rank is simulated with its share
// of the load (the fullest rank's ceil share of sessions and of a request
// pool, 1/DP of the arrival rate) and the throughput is scaled back up.
func RunModel(sm *perf.StepModel, cfg Config) Result {
	if cfg.Spec.Drafts == 0 && sm.S.SpecTokens > 0 {
		cfg.Spec = Speculation{Drafts: sm.S.SpecTokens, Accept: sm.S.SpecAcceptPerPosition()}
	}
	dp := cfg.DP
	if sm.S.Model.IsMoE() || dp <= 1 {
		return Run(cfg)
	}
	one := *sm.S.WithDP(1)
	m1 := perf.NewStepModel(one)
	cfg.Step, cfg.DP = m1.StepSeconds, 1
	if cfg.Sessions > 0 {
		cfg.Sessions = (cfg.Sessions + dp - 1) / dp
	}
	if cfg.Pool > 0 {
		cfg.Pool = (cfg.Pool + dp - 1) / dp
		cfg.Requests = min(cfg.Requests, cfg.Pool)
	}
	cfg.ArrivalRatePerS /= float64(dp)
	res := Run(cfg)
	res.OutputTokPerS *= float64(dp)
	res.TotalTokPerS *= float64(dp)
	res.MeanRunning *= float64(dp)
	res.MeanWaiting *= float64(dp)
	return res
}

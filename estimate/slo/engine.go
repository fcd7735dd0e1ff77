package slo

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/vllm"
)

// ApplyEngine sets what the simulation takes from the engine the deployment
// runs: the release's scheduling policy (vllm.Release.Scheduler: V1 decodes
// first and chunks prompts; V0 prefills whole prompts first), whether it
// schedules a step ahead (async scheduling: perf.AsyncScheduling), and the
// serving front end's costs, spread over the API-server processes: with the
// release's per-request chat-template parse (perf.Efficiency.ChatTemplateS)
// unless the workload calls the completions endpoint — check assumes the
// chat endpoint, what most deployments serve (spec.Workload.API).
func ApplyEngine(in *input.Input, eff perf.Efficiency, cfg *sim.Config) {
	if k, _ := in.Release().Scheduler(); k == vllm.SchedPrefillFirstWhole {
		cfg.Policy = sim.PrefillFirstWhole
		cfg.MaxNumBatchedTokens = max(cfg.MaxNumBatchedTokens, in.MaxModelLen)
	}
	cfg.ScheduleAhead = perf.AsyncScheduling(in)
	n := float64(apiServers(in))
	cfg.Frontend = sim.Frontend{RequestS: eff.FrontendRequestS / n, PromptTokenS: eff.FrontendPromptTokenS / n, TokenS: eff.FrontendTokenS / n,
		Servers: apiServers(in)}
	if in.Workload.Chat() {
		cfg.Frontend.ChatTemplateS = eff.ChatTemplateS(in.Release(), in.Model.ModelType) / n
	}
	cfg.Frontend.Rounds = perf.IngestRounds(in.Model.ModelType)
}

// apiServers is the number of API-server processes: the spec's
// api_server_count, else the release's default (one; the DP size where the
// release's default is "auto").
func apiServers(in *input.Input) int {
	if d := in.Resolved(); d != nil && d.Engine.APIServers.Value > 0 {
		return d.Engine.APIServers.Value
	}
	def := in.Release().Defaults()
	if def.APIServerCountAuto {
		return max(1, in.Layout.DP)
	}
	return max(1, def.APIServerCount)
}

// burstLoad turns the workload's finite run (burst_requests) into the
// simulation's pool: the requests sent at t=0 with at most concurrency in
// flight (all of them without a concurrency), or at the arrival rate.
func burstLoad(in *input.Input, cfg *sim.Config) {
	w := in.Workload
	if w.BurstRequests <= 0 {
		return
	}
	cfg.Pool, cfg.StaggerS = w.BurstRequests, 0
	switch {
	case w.ArrivalRatePerS > 0:
		cfg.Sessions = 0
	case w.Concurrency > 0:
		cfg.Sessions = min(w.Concurrency, w.BurstRequests)
	default:
		cfg.Sessions = w.BurstRequests
	}
}

package slo

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// ApplyEngine sets what the simulation takes from the engine the deployment
// runs: the release's scheduling policy (vllm.Release.Scheduler: V1 decodes
// first and chunks prompts; V0 prefills whole prompts first), whether it
// schedules a step ahead (async scheduling: perf.AsyncScheduling), and the
// serving front end's costs, spread over the API-server processes: with the
// release's per-request chat-template parse (perf.Efficiency.ChatTemplateS)
// unless the workload calls the completions endpoint — check assumes the
// chat endpoint, what most deployments serve (spec.Workload.API) — and
// vLLM's DP load balancer over cfg.DP ranks (sim.DPLBFor, as the
// calibration replay decides it; the caller sets cfg.DP first), whether
// its MoE DP engines step in waves (sim.DPWaveFor), and the tokenizer's
// micro-batching wait before a lone prompt (perf.TokenizerBatchWait) and
// where it encodes prompts (perf.PromptTokenizer).
func ApplyEngine(in *input.Input, eff perf.Efficiency, cfg *sim.Config) {
	if k, _ := in.Release().Scheduler(); k == vllm.SchedPrefillFirstWhole {
		cfg.Policy = sim.PrefillFirstWhole
		cfg.MaxNumBatchedTokens = max(cfg.MaxNumBatchedTokens, in.MaxModelLen)
	}
	cfg.ScheduleAhead = perf.AsyncScheduling(in)
	// V1's engine core takes requests between steps (sim.UseQueueWindow)
	cfg.QueueWindow = in.Release().EngineEra().V1Default == vllm.Present
	servers, perRank := frontEndServers(in)
	n := float64(servers)
	cfg.Frontend = sim.Frontend{RequestS: eff.FrontendRequestS / n, PromptTokenS: eff.FrontendPromptTokenS / n, TokenS: eff.FrontendTokenS / n,
		Servers: servers, PerRank: perRank}
	if in.Workload.Chat() {
		cfg.Frontend.ChatTemplateS = eff.ChatTemplateS(in.Release(), in.Model.ModelType) / n
	}
	cfg.Frontend.Rounds = perf.IngestRounds(in.Model.ModelType)
	// the tokenizer's micro-batching wait (perf.TokenizerBatchWait): none
	// for gpt-oss's chat prompts, built as token ids
	harmonyChat := in.Model.ModelType == "gpt_oss" && in.Workload.Chat()
	cfg.Frontend.ReadyDelayS = perf.TokenizerBatchWait(in.Release(), harmonyChat)
	// where the release encodes the prompt: on the loop, or on a tokenizer
	// thread beside it (micro-batched on 0.10.0–0.23.x)
	cfg.Frontend.Tokenizer = perf.PromptTokenizer(in.Release(), harmonyChat)
	cfg.PrefixCaching = prefixCaching(in)
	cfg.DPLB = sim.DPLBFor(DPLBDeployment(in, cfg.DP))
	if r := RouterFor(in); r.Active() {
		// an external router routes, the ranks in external LB (one API
		// server each): vLLM's balancer routes nothing
		cfg.Router, cfg.DPLB = r, sim.DPLB{}
	}
	cfg.DPWave = sim.DPWaveFor(true, in.Model != nil && in.Model.IsMoE(), cfg.DP) // vLLM's DP waves (sim.UseDPWave)
	if cfg.DPWave {
		cfg.WaveRunAhead = sim.WaveRunAheadFor(in.Release(), cfg.ScheduleAhead)
	}
}

// RouterFor is the external router in front of the deployment's DP ranks
// (resolve.Deployment.Router: vllm-router with its policy and its
// command-line thresholds, sim.VLLMRouter; zero: none).
func RouterFor(in *input.Input) sim.Router {
	d := in.Resolved()
	if d == nil || d.Router == nil || d.Router.Kind != spec.RouterKindVLLM {
		return sim.Router{}
	}
	return sim.VLLMRouter(sim.RouterPolicy(d.Router.Policy.Value))
}

// DPLBDeployment is the DP load balancing of the deployment vlaunch
// launches, with dp ranks a replica (cfg.DP: the caller's simulated
// instance), for sim.DPLBFor — the function the calibration replay decides
// a row's with. vLLM, served over its API server; the node that serves the
// API is the replica's first, whose command the bundle writes with
// --data-parallel-size-local (its engines) and apiServers(in) API
// servers, the other nodes --headless (generator/args.go nodeArgs: no
// --data-parallel-hybrid-lb, --data-parallel-external-lb or
// --data-parallel-rank, and no start rank on the primary):
// vllm.Release.DPLoadBalancing reads that as internal LB. The LB flags of
// vllm.extra_args (argparse keeps the last word of each) are read as
// well, so a spec that asks for hybrid or external LB is simulated in it
// (across nodes vLLM then refuses the headless nodes: lint's
// VLLBModeHeadless).
func DPLBDeployment(in *input.Input, dp int) sim.DPLBDeployment {
	n := vllm.DPNode{Size: dp, LocalSize: dp}
	var extra []string
	if d := in.Resolved(); d != nil {
		if local, spanning := d.FirstNodeDPLocal(); !spanning && local < dp {
			n.LocalSize, n.LocalSizeSet = local, true
		}
		if d.Spec != nil {
			extra = d.Spec.VLLM.ExtraArgs
		}
	}
	readLBFlags(extra, &n)
	dense := in.Model != nil && !in.Model.IsMoE() // sim.BlindDenseDP, as the replay decides it
	return sim.DPLBDeployment{VLLM: true, Served: true, Release: in.Release(), Node: n, APIServers: apiServers(in), Dense: dense}
}

// readLBFlags sets what words (vllm.extra_args) say of the DP LB mode.
func readLBFlags(words []string, n *vllm.DPNode) {
	for i, w := range words {
		name, val, inline := strings.Cut(w, "=")
		if !inline && i+1 < len(words) {
			val = words[i+1]
		}
		num, err := strconv.Atoi(val)
		switch name {
		case "--data-parallel-hybrid-lb":
			n.HybridFlag = true
		case "--data-parallel-external-lb":
			n.ExternalFlag = true
		case "--data-parallel-rank":
			n.RankSet = true
		case "--data-parallel-start-rank":
			if err == nil {
				n.StartRankSet, n.StartRank = true, num
			}
		case "--data-parallel-size-local":
			if err == nil {
				n.LocalSizeSet, n.LocalSize = true, num
			}
		}
	}
}

// frontEndServers is the API-server processes of one front end and
// whether each DP rank has its own (sim.Frontend.PerRank): behind the
// router (resolve.Deployment.ExternalLB) every rank's `vllm serve` runs
// resolve.Deployment.RankAPIServers of its own, in front of its engine
// alone — the count generate writes on each rank — else the replica's
// API servers (apiServers) share its ranks.
func frontEndServers(in *input.Input) (servers int, perRank bool) {
	if d := in.Resolved(); d != nil && d.ExternalLB() && RouterFor(in).Active() {
		return d.RankAPIServers(), true
	}
	return apiServers(in), false
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
// flight (all of them without a concurrency), or at the arrival rate,
// paced as `vllm bench serve` paces a finite rate (sim.Config.ClientPacing:
// the last request at burst_requests / rate, the run measured from t = 0;
// calibrate turns it off for a result of another client).
func burstLoad(in *input.Input, cfg *sim.Config) {
	w := in.Workload
	if w.BurstRequests <= 0 {
		return
	}
	cfg.Pool, cfg.StaggerS = w.BurstRequests, 0
	switch {
	case w.ArrivalRatePerS > 0:
		cfg.Sessions, cfg.ClientPacing = 0, true
	case w.Concurrency > 0:
		cfg.Sessions = min(w.Concurrency, w.BurstRequests)
	default:
		cfg.Sessions = w.BurstRequests
	}
}

// prefixCaching says the deployment serves with vLLM's automatic prefix
// caching (sim.Config.PrefixCaching, read for sessions with history): on
// by default with the V1 engine (vllm-project/vllm
// tests/v1/engine/test_engine_args.py @5e0e4dbc: "V1 turns on prefix
// caching by default", and --no-enable-prefix-caching turns it off), the
// default engine from 0.8.0 (vllm.Release.EngineEra); the last
// --enable-prefix-caching or --no-enable-prefix-caching of vllm.extra_args
// decides over the default.
func prefixCaching(in *input.Input) bool {
	var args []string
	if d := in.Resolved(); d != nil && d.Spec != nil {
		args = d.Spec.VLLM.ExtraArgs
	}
	return in.Release().PrefixCaching(args)
}

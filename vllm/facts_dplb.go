package vllm

// srcDPLB: the DP load-balancing mode logic in EngineArgs
// (vllm/engine/arg_utils.py, several stored versions) and serve.py.
const srcDPLB = "stored vllm/engine/arg_utils.py (several versions): `if self.data_parallel_start_rank and not headless: # Infer hybrid LB mode` " +
	"(a start rank of 0 does not count), hybrid with local size 1 switches to external LB, hybrid with local size = DP size is turned off, " +
	"\"data_parallel_hybrid_lb is not applicable in headless mode\"; " + srcServe016 + " (is_hybrid_lb = --data-parallel-hybrid-lb or --data-parallel-start-rank is not None: " +
	"any explicit start rank, 0 included, picks the hybrid default --api-server-count = local DP size and is refused together with --data-parallel-rank); " +
	srcServe091 + "; hybrid LB first release 0.10.1 (PRs #21238/#21510, per vllm-facts.md, unverified)"

// srcStartRankZero: when an explicit --data-parallel-start-rank of 0 began
// to count as hybrid LB on a node with API servers.
const srcStartRankZero = "gpustack PR #6236 (2026-09-18; a table of vllm/engine/arg_utils.py: up to 0.27 the guard is " +
	"`if self.data_parallel_start_rank and not headless:` so 0 is ignored, from 0.28 `... is not None and not headless:` so an explicit 0 " +
	"infers hybrid LB, which with --data-parallel-size-local 1 becomes external LB; the DP handshake then refuses headless engines with " +
	"\"Remote engine 1 must not use --headless in external or hybrid dp lb mode\"); gpustack issue #6221 (vLLM 0.29, same error); " +
	"vllm-ascend PR #16204 (\"On vLLM 0.28, a set start-rank infers hybrid LB\"); a GLM launch script's comment quoting arg_utils.py:2252; " +
	"third-party sources for 0.27; the v0.28.0 tag's vllm/engine/arg_utils.py (2cf0a6915ce5, checkout bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a) " +
	"reads `if self.data_parallel_start_rank is not None and not headless:` (factaudit), the 0.27 tag not read"

// srcMultiPort: how serve.py treats --data-parallel-multi-port-external-lb.
const srcMultiPort = "vllm-project/vllm vllm/entrypoints/cli/serve.py at 00a5fdd20935ba7679750db22997dcf539ca4591 (ServeSubcommand.cmd: " +
	"with --data-parallel-multi-port-external-lb set, is_hybrid_lb = --data-parallel-hybrid-lb only, so a start rank no longer infers hybrid LB; " +
	"--api-server-count defaults to 1 (\"supervisor spawns one server per local DP rank\") and run_dp_supervisor(args) starts them); " +
	"vllm/entrypoints/openai/dp_supervisor.py (build_multi_port_external_lb_child_args: each child is external LB with " +
	"data_parallel_rank = start rank + local rank on --port + local rank, api_server_count 1)"

// LBMode is a data-parallel load-balancing mode.
type LBMode string

// LB modes.
const (
	// LBInternal: node 0's API servers spread requests over every rank;
	// other nodes run --headless engines.
	LBInternal LBMode = "internal"
	// LBHybrid: every node runs API servers over its own ranks; an external
	// balancer spreads traffic across nodes. Headless nodes do not fit it.
	LBHybrid LBMode = "hybrid"
	// LBExternal: one vllm serve (and API server) per rank.
	LBExternal LBMode = "external"
	// LBHeadless: this node runs engines only.
	LBHeadless LBMode = "headless"
	// LBInvalid: vLLM refuses the combination at start-up.
	LBInvalid LBMode = "invalid"
)

// DPNode is what one node's vllm serve command says about data parallelism.
type DPNode struct {
	Headless bool
	// StartRankSet is an explicit --data-parallel-start-rank (StartRank).
	StartRankSet bool
	StartRank    int
	// LocalSizeSet is an explicit --data-parallel-size-local (LocalSize).
	LocalSizeSet bool
	LocalSize    int
	Size         int
	HybridFlag   bool
	ExternalFlag bool
	// RankSet is an explicit --data-parallel-rank.
	RankSet bool
	// MultiPortFlag is --data-parallel-multi-port-external-lb: a node-local
	// supervisor runs one external-LB API server per local rank.
	MultiPortFlag bool
}

// hybridLBSince: the first release with hybrid LB and its inference.
var hybridLBSince = v0101

// startRankZeroSpan: releases where an explicit start rank 0 infers hybrid
// LB like any other start rank (before, `if self.data_parallel_start_rank`
// let 0 through as internal LB).
var startRankZeroSpan = Span{Since: v0280}

// HeadlessRejectedMessage is how node 0 refuses a headless engine when it
// runs in hybrid or external LB mode.
const HeadlessRejectedMessage = "Remote engine N must not use --headless in external or hybrid dp lb mode"

// DPLoadBalancing returns the LB mode vLLM infers for one node's command in
// this release, and why. Before hybrid LB existed a start rank only
// positioned headless engines (0.9.x help: "Requires --headless"); from
// 0.28 an explicit start rank of 0 counts like any other.
func (r Release) DPLoadBalancing(n DPNode) (LBMode, string) {
	switch {
	case n.Headless:
		return LBHeadless, "--headless runs engine cores only"
	case n.MultiPortFlag:
		return LBExternal, "--data-parallel-multi-port-external-lb runs one external-LB server per local rank (a start rank does not infer hybrid LB with it)"
	case n.RankSet || n.ExternalFlag:
		return LBExternal, "--data-parallel-rank (or --data-parallel-external-lb) selects external LB: one server per rank"
	case r.Version.Less(hybridLBSince):
		return LBInternal, "this release has no hybrid LB; a start rank only matters with --headless"
	}
	if n.HybridFlag && !n.LocalSizeSet {
		return LBInvalid, "vLLM asserts \"data_parallel_size_local must be set to use data_parallel_hybrid_lb\""
	}
	zero := n.StartRankSet && n.StartRank == 0 && startRankZeroSpan.Contains(r.Version)
	hybrid := n.HybridFlag || (n.StartRankSet && n.StartRank != 0) || zero
	if !hybrid || !n.LocalSizeSet || n.LocalSize == n.Size {
		return LBInternal, "no start rank that infers hybrid LB on a node with API servers: internal LB"
	}
	why := "a non-zero --data-parallel-start-rank without --headless infers hybrid LB"
	switch {
	case n.HybridFlag:
		why = "--data-parallel-hybrid-lb selects hybrid LB"
	case zero:
		why = "an explicit --data-parallel-start-rank, 0 included, infers hybrid LB in this release"
	}
	if n.LocalSize == 1 {
		return LBExternal, why + ", and hybrid LB with one local rank becomes external LB"
	}
	return LBHybrid, why + ": this node serves its own ranks, and headless secondaries do not fit"
}

// DPLBSource cites the rules DPLoadBalancing follows.
func DPLBSource() string { return srcDPLB + "; " + srcStartRankZero + "; " + srcMultiPort }

// DefaultAPIServers is how many API servers node's vllm serve starts when
// --api-server-count is not given. Releases with the old integer default
// start one; releases with the unset default (0.16.0 read) count any
// explicit --data-parallel-start-rank, 0 included, as hybrid LB and start
// the local DP size instead of the global one.
func (r Release) DefaultAPIServers(n DPNode) (int, string) {
	d := r.Defaults()
	switch {
	case n.Headless:
		return 0, "headless: no API server"
	case n.MultiPortFlag:
		return 1, "multi-port external LB: the supervisor's child for each local rank runs one API server"
	case !d.APIServerCountAuto:
		return d.APIServerCount, "the release's fixed default"
	case n.RankSet || n.ExternalFlag:
		return 1, "external LB: one API server per rank"
	case n.HybridFlag || n.StartRankSet:
		local := n.LocalSize
		if !n.LocalSizeSet || local < 1 {
			local = 1
		}
		return local, "an explicit --data-parallel-start-rank (even 0) or --data-parallel-hybrid-lb counts as hybrid: API servers = --data-parallel-size-local"
	default:
		return max(n.Size, 1), "internal LB: API servers = --data-parallel-size"
	}
}

package vllm

// srcDPLB: the DP load-balancing mode logic in EngineArgs
// (vllm/engine/arg_utils.py, several stored versions) and serve.py.
const srcDPLB = "stored vllm/engine/arg_utils.py (several versions): `if self.data_parallel_start_rank and not headless: # Infer hybrid LB mode` " +
	"(a start rank of 0 does not count), hybrid with local size 1 switches to external LB, hybrid with local size = DP size is turned off, " +
	"\"data_parallel_hybrid_lb is not applicable in headless mode\"; " + srcServe016 + " (is_hybrid_lb = --data-parallel-hybrid-lb or --data-parallel-start-rank is not None: " +
	"any explicit start rank, 0 included, picks the hybrid default --api-server-count = local DP size and is refused together with --data-parallel-rank); " +
	srcServe091 + "; hybrid LB first release 0.10.0: read at tag v0.9.2 (absent) and v0.10.0 (present) (kzwrime/vllm snapshot of vllm-project/vllm): vllm/engine/arg_utils.py (PRs #21238/#21510)"

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

// hybridLBSince: the first release with hybrid LB and its inference: the
// v0.10.0 tag's arg_utils.py registers --data-parallel-hybrid-lb and infers
// it from a start rank ("# Infer hybrid LB mode"); v0.9.2 has neither
// (flagspans45).
var hybridLBSince = v0100

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

// srcLBConflict: what vLLM does when a node asks for hybrid LB and
// external LB at once.
//   - 0.28.0 (read): EngineArgs.create_engine_config at the v0.28.0 tag
//     raises ValueError("Invalid data-parallel launch options:
//     `--data-parallel-hybrid-lb` and `--data-parallel-external-lb` cannot
//     be enabled together. Enable only one load-balancing mode."); the check
//     came with PR #49124 ([UX] Improve data-parallel launch validation,
//     opened 2026-07-19, whose reproducer's first case is
//     hybrid_and_external).
//   - 0.16.0 on: serve.py detects the LB mode to default --api-server-count
//     (is_external_lb = --data-parallel-external-lb or --data-parallel-rank,
//     is_hybrid_lb = --data-parallel-hybrid-lb or --data-parallel-start-rank)
//     and refuses both (srcServe016, as the table already reads it for
//     DefaultAPIServers).
//   - before: a stored serve.py of the 0.11.1-0.15 period (78265ccd, integer
//     --api-server-count default) has no such check, and EngineArgs keeps
//     one mode silently: main of the 0.10.2/0.11.0 period (99d7eb5d) sets
//     external LB from --data-parallel-rank alone and then
//     data_parallel_hybrid_lb = False; main of 2026-02 (quoted in
//     pytorch/pytorch issue #175435) does the same with the external flag.
//     Where the LB detection entered serve.py (0.13-0.16, with the unset
//     --api-server-count default, 0.15.0 assumed there) is unverified.
const srcLBConflict = "vllm/engine/arg_utils.py at the v0.28.0 tag 2cf0a6915ce5 (checkout bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a): " +
	"ValueError \"`--data-parallel-hybrid-lb` and `--data-parallel-external-lb` cannot be enabled together\" (PR #49124, opened 2026-07-19); " +
	srcServe016 + " (serve.py: is_external_lb and is_hybrid_lb refused); " +
	"vllm-project/vllm vllm/entrypoints/cli/serve.py@78265ccd8aad (0.11.1-0.15 period: no check) and vllm/engine/arg_utils.py@99d7eb5d6a51 " +
	"(external LB from --data-parallel-rank, then data_parallel_hybrid_lb = False); pytorch/pytorch issue #175435 (2026-02 main: the same); " +
	"first release of the serve.py check (0.13-0.16) unverified"

// lbConflictRefused: releases that refuse hybrid and external LB together
// (Maybe from 0.13.0, where the serve.py check may have entered; certain
// from 0.16.0, the first serve.py read with it).
var lbConflictRefused = Span{Since: v0130, Confirmed: v0160}

// engineArgsLBCheck: the first release whose EngineArgs itself refuses the
// pair (read at the v0.28.0 tag; PR #49124 opened after 0.24.0, 0.25-0.27
// not read, so the check is cited there only through serve.py).
var engineArgsLBCheck = v0280

// LBConflict is what this release does with --data-parallel-hybrid-lb
// given together with external LB (--data-parallel-external-lb or
// --data-parallel-rank): Present, it refuses to start; Maybe, it may
// refuse (the check's first release is not pinned); Absent, it starts and
// keeps one mode. why says which check or behaviour, for messages.
func (r Release) LBConflict() (refused Presence, why string) {
	switch p := lbConflictRefused.In(r.Version); {
	case p == Present && r.Version.AtLeast(engineArgsLBCheck):
		return p, "EngineArgs raises \"--data-parallel-hybrid-lb and --data-parallel-external-lb cannot be enabled together\" (and vllm serve refuses external with hybrid LB)"
	case p == Present:
		return p, "vllm serve refuses an external LB (--data-parallel-external-lb/--data-parallel-rank) together with hybrid LB"
	case p == Maybe:
		return p, "vllm serve may refuse it (its check is first read in 0.16.0); otherwise one mode is silently dropped"
	default:
		return p, "vLLM does not refuse it: it keeps one mode and silently drops the other (a --data-parallel-rank turns hybrid LB off)"
	}
}

// LBConflictSource cites LBConflict.
func LBConflictSource() string { return srcLBConflict }

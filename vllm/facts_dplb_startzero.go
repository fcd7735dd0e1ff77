package vllm

// srcStartRankZero: when an explicit --data-parallel-start-rank of 0 began
// to count as hybrid LB on a node with API servers.
const srcStartRankZero = "gpustack PR #6236 (2026-09-18; a table of vllm/engine/arg_utils.py: up to 0.27 the guard is " +
	"`if self.data_parallel_start_rank and not headless:` so 0 is ignored, from 0.28 `... is not None and not headless:` so an explicit 0 " +
	"infers hybrid LB, which with --data-parallel-size-local 1 becomes external LB; the DP handshake then refuses headless engines with " +
	"\"Remote engine 1 must not use --headless in external or hybrid dp lb mode\"); gpustack issue #6221 (vLLM 0.29, same error); " +
	"vllm-ascend PR #16204 (\"On vLLM 0.28, a set start-rank infers hybrid LB\"); a GLM launch script's comment quoting arg_utils.py:2252; " +
	"third-party sources, the tags themselves were not read"

// startRankZeroSpan: releases where an explicit start rank 0 infers hybrid LB.
var startRankZeroSpan = Span{Since: mustVersion("0.28.0")}

// StartRankZeroInfersHybrid reports whether, in this release, an explicit
// `--data-parallel-start-rank 0` on a node that is not --headless switches
// it to hybrid LB (external with one local rank), like any other start
// rank; DPLoadBalancing follows the older rule, where 0 does not count.
func (r Release) StartRankZeroInfersHybrid() (Presence, string) {
	return startRankZeroSpan.In(r.Version), srcStartRankZero
}

// HeadlessRejectedMessage is how node 0 refuses a headless engine when it
// runs in hybrid or external LB mode.
const HeadlessRejectedMessage = "Remote engine N must not use --headless in external or hybrid dp lb mode"

package generator

import (
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/resolve"
)

// CodeRouter: a router in front of a colocated deployment (top-level
// router:), which the bundle does not start yet.
const CodeRouter = codes.GenRouter

// routerProblem refuses a colocated spec with a top-level router: check
// simulates vllm-router in front of the DP ranks, but the bundles start one
// `vllm serve` per node with internal LB, and a router can address a rank
// only in one of two ways, neither of which vlaunch writes yet:
//
//   - external DP load balancing: every rank its own `vllm serve
//     --data-parallel-rank R` with a port of its own (vllm.DPLoadBalancing's
//     LBExternal: "External load balancer - client per DP rank" in
//     vllm/v1/engine/core_client.py, Yuran-7/vllm-0.11 @2665d4910; the flag
//     from 0.10.0 by vllm/flags_table.go, first release unverified;
//     --data-parallel-external-lb from PR #23691, present at 0.16.0;
//     --data-parallel-multi-port-external-lb, one API server per local
//     rank on --port + local rank, from 0.20-0.22), listed by the router as
//     --worker-urls;
//   - the X-data-parallel-rank header on an internal-LB server: vllm-router
//     --intra-node-data-parallel-size N turns each worker URL into N
//     DP-aware workers and sends the header (vllm-project/router@03e9af5c
//     src/main.rs), which the API server passes on as data_parallel_rank
//     (PR #24945, "Enable DP-aware routing in OpenAI API requests", opened
//     2025-09-16); the v0.11.0 snapshot's vllm/entrypoints/openai reads no
//     such header (core_client.py honours request.data_parallel_rank, set
//     only through the engine API), so its first release is after 0.11.0
//     and otherwise unknown.
//
// Rather than a bundle that silently leaves the router out, generate
// refuses (a P/D spec's router is disaggregation.router, which generatePD
// writes). Only Generate asks it: check and plan simulate the router and
// need no bundle.
func routerProblem(r *resolve.Deployment) (diag.Diagnostic, bool) {
	if r.Router == nil || r.PD != nil {
		return diag.Diagnostic{}, true
	}
	return gdiag(r.Spec, CodeRouter, diag.Error, "router",
		"generate does not yet write a router in front of a colocated deployment: its DP ranks would need vLLM's external load balancing "+
			"(one vllm serve per rank with --data-parallel-rank and a port of its own) and vllm-router listing them, which the bundle does not start",
		"remove router: to generate the bundle with vLLM's own DP load balancer (check then predicts that deployment), or start vllm-router and the ranks by hand"), false
}

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
// simulates vllm-router in front of the DP ranks, but a bundle that runs
// it needs every rank in vLLM's external DP load balancing (its own `vllm
// serve --data-parallel-rank R` and port, vllm.DPLoadBalancing's
// LBExternal, since vLLM 0.10.0 by the flag table, first release
// unverified) and the router listing them as --worker-urls; the bundles
// start one `vllm serve` per node with internal LB. Rather than a bundle
// that silently leaves the router out, generate refuses (a P/D spec's
// router is disaggregation.router, which generatePD writes). Only
// Generate asks it: check and plan simulate the router and need no
// bundle.
func routerProblem(r *resolve.Deployment) (diag.Diagnostic, bool) {
	if r.Router == nil || r.PD != nil {
		return diag.Diagnostic{}, true
	}
	return gdiag(r.Spec, CodeRouter, diag.Error, "router",
		"generate does not yet write a router in front of a colocated deployment: its DP ranks would need vLLM's external load balancing "+
			"(one vllm serve per rank with --data-parallel-rank and a port of its own) and vllm-router listing them, which the bundle does not start",
		"remove router: to generate the bundle with vLLM's own DP load balancer (check then predicts that deployment), or start vllm-router and the ranks by hand"), false
}

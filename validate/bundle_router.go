package validate

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// routerRefusal refuses a colocated router (top-level router:) the bundle
// cannot start (GEN014): a release that may lack --data-parallel-rank
// (vllm.Release.ExternalLBLaunch: read at 0.11.0, absent at 0.9.0, unknown
// between), replicas (each replica's DP ranks would need a router of their
// own, or one DP group across the replicas, neither of which check
// models), a router in front of replicas of one rank each (not written
// yet), and on Kubernetes a router without router.image (vlaunch knows no
// published image of vllm-router). It was generate's alone, so `vlaunch
// plan` listed TP 8 × 2 replicas behind the spec's router as #1 and
// generate refused it after --apply (newuser40's Llama-3.3-70B spec): as
// one of BundleRefusals it is what plan's candidates are checked against.
// r is assembled (its layout is concrete); a P/D spec's pools have no
// top-level router (spec.Deployment.RoleView).
func routerRefusal(r *resolve.Deployment, runtime string) diag.Diagnostics {
	if r.Router == nil || r.PD != nil {
		return nil
	}
	refuse := func(path, msg, hint string) diag.Diagnostics {
		return diag.Diagnostics{bundleDiag(r.Spec, codes.GenRouter, diag.Error, path, msg, hint)}
	}
	if r.Layout.DP <= 1 {
		return refuse("router", "generate does not yet write a router in front of independent replicas of one DP rank each (parallelism.replicas)",
			"remove router: to generate the replicas behind a load balancer of your own (the README shows one), or run one replica of data parallel > 1")
	}
	if r.Layout.ReplicaCount() > 1 {
		return refuse("router", fmt.Sprintf("generate does not write a router in front of %d replicas of DP %d: every replica's ranks would form a DP group of their own, and one router over all ranks is not what check simulates", r.Layout.ReplicaCount(), r.Layout.DP),
			"run one replica (parallelism.replicas: 1) with the ranks behind the router, or remove router:")
	}
	if p, why, since := r.Release.ExternalLBLaunch(); p != vllm.Present {
		return refuse("vllm.version", "the router needs every DP rank to run vLLM's external load balancing (one vllm serve --data-parallel-rank R per rank, with a port of its own): "+why,
			fmt.Sprintf("use vLLM %s or later (the first release whose source vlaunch read with it), or remove router:", since))
	}
	if runtime == "kubernetes" && r.Router.Image == "" {
		return refuse("router", "on Kubernetes the router runs as a Deployment, and vlaunch knows no published image of vllm-router (github.com/vllm-project/router)",
			"set router.image to an image with vllm-router on its PATH, or generate for bare or docker (router.sh runs it on the host)")
	}
	return nil
}

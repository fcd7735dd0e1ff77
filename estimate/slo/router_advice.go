package slo

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// UseRouterAdvice adds, to a failing verdict of a workload whose sessions
// keep their history on a data-parallel deployment without a router, what
// vllm-router's cache_aware policy in front of the DP ranks would give
// (spec.Deployment.Router): vLLM's own DP load balancer routes by queue
// lengths, so most turns land on a rank that does not cache their history
// and prefill it again (sim/history.go). The line is the applied spec's
// scenario as check runs it (wouldPassCheck.confirm): one more scenario
// per input length with a failing verdict.
var UseRouterAdvice = true

// routerEdit is a top-level router: vllm-router with policy cache_aware on
// the first node, at its default port.
func routerEdit() specEdit {
	return specEdit{key: "router=cache_aware", edit: func(s *spec.Deployment) {
		r := &spec.Router{Kind: spec.RouterKindVLLM, Policy: spec.RouterPolicyCacheAware, Port: spec.DefaultColocatedRouterPort}
		if len(s.Hardware.Nodes) > 0 {
			r.Node = s.Hardware.Nodes[0].Name
		}
		s.Router = r
	}}
}

// routerAdviceApplies: the advice is on, and the deployment is a spec's
// DP > 1 layout without a router whose sessions keep their history under
// prefix caching.
func routerAdviceApplies(in *input.Input) bool {
	if !UseRouterAdvice {
		return false
	}
	d := in.Resolved()
	if d == nil || d.Spec == nil || d.Router != nil || d.Layout.DP <= 1 || !prefixCaching(in) {
		return false
	}
	_, history := in.Conversation()
	return history
}

// prefetchRouterRuns runs, side by side, the router's scenario at every
// input length a failing verdict of vs judges (routerWouldTake then reads
// them from wp): one scenario per length as check runs it, which run one
// after another doubled check's time on the reference (0.16 → 0.35 s).
func prefetchRouterRuns(in *input.Input, vs []Verdict, wp *wouldPassCheck) {
	if wp == nil || !routerAdviceApplies(in) {
		return
	}
	var ns []int
	for i := range vs {
		if vs[i].Verdict == VerdictFail {
			ns = append(ns, verdictInputTokens(in, &vs[i]))
		}
	}
	wp.prefetchConfirms(routerEdit(), ns)
}

// routerWouldTake is the router line of failing verdict v (ok false: the
// deployment already has a router, keeps no history, has one DP rank or
// no prefix caching, cannot be edited, or the router does not improve
// v's figure).
func routerWouldTake(in *input.Input, p *Performance, v *Verdict, wp *wouldPassCheck) (string, bool) {
	if wp == nil || v.Verdict != VerdictFail || !routerAdviceApplies(in) {
		return "", false
	}
	d := in.Resolved()
	n := verdictInputTokens(in, v)
	now := p.sim(n)
	if now == nil {
		return "", false
	}
	c := wp.confirm(routerEdit(), n)
	if c == nil || c.sc.Result.Truncated || c.sc.Result.Overloaded {
		return "", false
	}
	got, pass := wp.figure(v, c.sc.Result)
	was, _ := wp.figure(v, now.Result)
	better := got > was
	if v.Unit != "tokens/s" {
		better = got > 0 && got < was
	}
	if !better {
		return "", false
	}
	verdict := "short of the target"
	if pass {
		verdict = "meeting the target" + wp.bandCaveat(v, routerEdit())
	}
	return fmt.Sprintf("a prefix-cache-aware router in front of the %d DP ranks (router: {kind: %s, policy: %s}: vllm-router sends a session's "+
		"next turn to the rank that served its last one while the loads stay within its balance thresholds, the ranks in vLLM's external "+
		"DP load balancing; %s) gives %s (now %s), %s; it reuses %.0f%% of the history tokens (now %.0f%%)",
		d.Layout.DP, spec.RouterKindVLLM, sim.RouteCacheAware, routerBundleNote(in), textfmt.Quantity(got, v.Unit), textfmt.Quantity(was, v.Unit), verdict,
		100*c.sc.Result.HistoryReused, 100*now.Result.HistoryReused), true
}

// routerBundleNote says whether generate writes the router's bundle on the
// spec's release (vllm.Release.ExternalLBLaunch: one `vllm serve
// --data-parallel-rank R` per rank), so the advice does not propose what
// the bundle cannot start.
func routerBundleNote(in *input.Input) string {
	switch p, _, since := in.Release().ExternalLBLaunch(); p {
	case vllm.Present:
		return "generate writes the ranks and the router"
	case vllm.Maybe:
		return "generate refuses it on this release (GEN014: per-rank launches unverified before " + since.String() + ")"
	default:
		return "generate needs vLLM " + since.String() + " or later for it (GEN014)"
	}
}

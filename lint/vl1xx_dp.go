package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkLocalGtGlobal reports --data-parallel-size-local > --data-parallel-size (VL118).
func checkLocalGtGlobal(p *pass) {
	for _, s := range p.Servers {
		dp, dpl := s.DP(), s.Int("data-parallel-size-local", 0)
		if dpl.Set && dpl.Known && dp.Known && dpl.N > dp.N {
			p.ReportAt(s.Inv, dpl.At, "--data-parallel-size is the global size over all nodes", "--data-parallel-size-local %d is larger than --data-parallel-size %d", dpl.N, dp.N)
		}
	}
}

// checkMissingLocal reports a multi-node DP node without
// --data-parallel-size-local: it then tries to start every rank (VL119).
func checkMissingLocal(p *pass) {
	for _, s := range p.Servers {
		if s.Has("data-parallel-hybrid-lb") && !s.Int("data-parallel-size-local", 0).Set && !s.FromConfig("data-parallel-size-local") {
			p.ReportAt(s.Inv, s.Flag("data-parallel-hybrid-lb").At.Pos, "add --data-parallel-size-local <ranks on this node>", "--data-parallel-hybrid-lb requires --data-parallel-size-local")
			continue
		}
		if s.Int("data-parallel-size-local", 0).Set || s.FromConfig("data-parallel-size-local") || !s.MultiNodeDP() || s.Has("data-parallel-hybrid-lb") {
			continue
		}
		if s.Flag("data-parallel-rank") != nil {
			continue
		}
		if onlyAddressSaysMultiNode(s) && ranksFitNode(p, s) {
			// --data-parallel-address alone, and every rank fits on this
			// node's devices: a single-node DP group that names its
			// coordinator (vllm-ascend's P/D guides do), not a node that
			// starts another node's ranks.
			continue
		}
		p.ReportAt(s.Inv, s.Inv.Pos, "add --data-parallel-size-local <ranks on this node>", "multi-node data parallel without --data-parallel-size-local: this node tries to start all %d ranks", s.DP().N)
	}
}

// onlyAddressSaysMultiNode reports a server whose only sign of multi-node
// DP is a routable --data-parallel-address: not --headless, no start rank,
// no local size.
func onlyAddressSaysMultiNode(s *server) bool {
	return !s.Headless() && !s.StartRank().Set && !s.Int("data-parallel-size-local", 0).Set
}

// ranksFitNode reports whether DP x TP x PP fits the node's devices.
func ranksFitNode(p *pass, s *server) bool {
	dp, tp, pp := s.DP(), s.TP(), s.PP()
	if !dp.Known || !tp.Known || !pp.Known {
		return false
	}
	return dp.N*tp.N*pp.N <= p.nodeGPUCount(s).n
}

// checkDBO reports --enable-dbo without its preconditions (VL120): expert
// parallel, DP > 1 and a backend the release's assertion accepts
// (vllm.Release.DBORequirement). A backend the release may accept (seen
// accepted only in a later release, its first release unknown) is an info:
// it cannot be verified, which is no reason to call it refused.
func checkDBO(p *pass) {
	for _, s := range p.Servers {
		f := s.Flag("enable-dbo")
		if f == nil || f.Negated {
			continue
		}
		name, _, _ := s.Backend()
		req, dp := s.Rel.DBORequirement(), s.DP()
		const hint = "DBO needs --enable-expert-parallel, --data-parallel-size > 1 and an all-to-all backend the release accepts for it"
		switch {
		case !s.EP() || (dp.Known && dp.N <= 1):
			p.ReportVersioned(s, f.At.Pos, hint, "--enable-dbo without expert parallel and DP > 1")
		case req.MayAccept(name):
			// Seen accepted in a later release, first release unknown:
			// unknown here, not refused (issue #23).
			p.ReportAtSeverity(s.Inv, f.At.Pos, diag.Info, hint, "--enable-dbo with %s: cannot verify that vLLM %s accepts it for DBO; first seen accepted in %s (earlier releases accept only %s)",
				name, s.Rel, req.Seen, strings.Join(req.CertainBackends(), " or "))
		case req.Accepts(name):
		case !req.Verified && vllm.Newest().DBORequirement().Accepts(name):
			p.ReportAtSeverity(s.Inv, f.At.Pos, diag.Warning, hint, "--enable-dbo with %s: vLLM %s may accept only %s for DBO (later releases accept %s; where that changed is unverified)",
				name, s.Rel, strings.Join(req.Backends, " or "), name)
		default:
			p.ReportVersioned(s, f.At.Pos, hint, "--enable-dbo with all-to-all backend %s: vLLM %s accepts only %s (asserted in %s)",
				name, s.Rel, strings.Join(req.Backends, " or "), req.Where)
		}
	}
}

// checkEPLB reports --enable-eplb without expert parallel (VL121).
func checkEPLB(p *pass) {
	for _, s := range p.Servers {
		f := s.Flag("enable-eplb")
		if f != nil && !f.Negated && !s.EP() {
			p.ReportAt(s.Inv, f.At.Pos, "add --enable-expert-parallel", "--enable-eplb requires --enable-expert-parallel")
		}
	}
}

// checkLBModes reports more than one DP load-balancing mode (VL122). Hybrid
// with external LB alone is an error only where the release refuses the
// pair (vllm.Release.LBConflict: serve.py from 0.16.0, EngineArgs from
// 0.28.0); older releases start and silently drop one mode, a warning.
func checkLBModes(p *pass) {
	for _, s := range p.Servers {
		var modes []string
		hybrid := s.Has("data-parallel-hybrid-lb")
		external := s.Has("data-parallel-external-lb") || s.Flag("data-parallel-rank") != nil
		multi := s.Has("data-parallel-multi-port-external-lb")
		if hybrid {
			modes = append(modes, "--data-parallel-hybrid-lb")
		}
		if external {
			modes = append(modes, "external LB (--data-parallel-rank/--data-parallel-external-lb)")
		}
		if multi {
			modes = append(modes, "--data-parallel-multi-port-external-lb")
		}
		if len(modes) < 2 {
			continue
		}
		if multi {
			p.ReportAt(s.Inv, s.Inv.Pos, "choose one load-balancing mode", "more than one data-parallel load-balancing mode: %v", modes)
			continue
		}
		refused, why := s.Rel.LBConflict()
		if refused == vllm.Present {
			p.ReportVersioned(s, s.Inv.Pos, "choose one load-balancing mode", "more than one data-parallel load-balancing mode: %v; vLLM %s refuses it: %s", modes, s.Rel, why)
			continue
		}
		p.ReportAtSeverity(s.Inv, s.Inv.Pos, diag.Warning, "choose one load-balancing mode", "more than one data-parallel load-balancing mode: %v; in vLLM %s %s", modes, s.Rel, why)
	}
}

package lint

import (
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// lbMode is the data-parallel load-balancing mode vLLM infers from this
// node's command in its release (vllm.DPLoadBalancing); ok is false when a
// value it depends on is unresolved.
func (s *server) lbMode() (mode vllm.LBMode, why string, ok bool) {
	n, ok := s.dpNode()
	if !ok {
		return "", "", false
	}
	mode, why = s.Rel.DPLoadBalancing(n)
	return mode, why, true
}

// dpNode is this node's data-parallel flags as vllm reads them; ok is
// false when a value it depends on is unresolved.
func (s *server) dpNode() (vllm.DPNode, bool) {
	sr, dpl, dp := s.StartRank(), s.Int("data-parallel-size-local", 0), s.DP()
	if !sr.Known || !dpl.Known || !dp.Known {
		return vllm.DPNode{}, false
	}
	return vllm.DPNode{Headless: s.Headless(), StartRankSet: sr.Set, StartRank: sr.N, LocalSizeSet: dpl.Set, LocalSize: dpl.N,
		Size: dp.N, HybridFlag: s.Has("data-parallel-hybrid-lb"), ExternalFlag: s.Has("data-parallel-external-lb"),
		RankSet: s.Flag("data-parallel-rank") != nil, MultiPortFlag: s.multiPortLB()}, true
}

// multiPortLB reports --data-parallel-multi-port-external-lb: a supervisor
// on this node runs one external-LB API server per local rank, so the node
// serves the API without being a primary, and a start rank positions its
// ranks without inferring hybrid LB (vllm.DPLBSource).
func (s *server) multiPortLB() bool { return s.Has("data-parallel-multi-port-external-lb") }

// checkLBHeadless reports a node that vLLM puts in hybrid or external LB in
// a deployment whose other nodes are --headless: node 0 then refuses them
// ("Remote engine N must not use --headless in external or hybrid dp lb
// mode") (VL217).
func checkLBHeadless(p *pass) {
	for _, g := range p.Groups {
		nodes := dpNodes(g)
		var headless *server
		for _, s := range nodes {
			if s.Headless() {
				headless = s
			}
		}
		if headless == nil {
			continue
		}
		for _, s := range nodes {
			if s.Headless() || s.Inv.Frontend != "" {
				continue
			}
			mode, why, ok := s.lbMode()
			if !ok || (mode != vllm.LBHybrid && mode != vllm.LBExternal) {
				continue
			}
			at := s.StartRank().At
			if f := s.Flag("data-parallel-hybrid-lb"); f != nil {
				at = f.At.Pos
			}
			report := p.ReportVersioned
			if sr := s.StartRank(); !sr.Set || sr.N != 0 {
				report = func(s *server, pos launch.Pos, hint, format string, args ...interface{}) {
					p.ReportAt(s.Inv, pos, hint, format, args...)
				}
			}
			report(s, at, "internal LB: drop --data-parallel-start-rank (and --data-parallel-hybrid-lb) on the node that serves the API; keep the start ranks on the --headless nodes",
				"vLLM %s runs this node in %s LB (%s), and then refuses the --headless node %s: %q", s.Rel, mode, why, headless.Inv.Node, vllm.HeadlessRejectedMessage)
		}
	}
}

// groupHasHeadless reports whether s's deployment has a --headless node.
func (p *pass) groupHasHeadless(s *server) bool {
	for _, g := range p.Groups {
		for _, x := range g {
			if x != s {
				continue
			}
			for _, y := range g {
				if y.Headless() {
					return true
				}
			}
		}
	}
	return false
}

package lint

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// settingText renders a flag's setting for comparison.
func settingText(s *server, name string) string {
	f := s.Flag(name)
	if s.FromConfig(name) {
		return "(from --config)"
	}
	if f == nil {
		return "(unset)"
	}
	return flagText(f)
}

// sameSetting compares two settings as vLLM reads them: a JSON value
// (--compilation-config '{"cudagraph_mode": …}') by its content, not its
// spacing or key order (vllm-ascend's GLM-4.x tutorial writes node 1's
// with two spaces after a comma, node 0's with one).
func sameSetting(a, b string) bool {
	if a == b {
		return true
	}
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	ca, err1 := json.Marshal(x)
	cb, err2 := json.Marshal(y)
	return err1 == nil && err2 == nil && string(ca) == string(cb)
}

// checkSameFlags reports model and parallel flags that differ between nodes (VL201).
func checkSameFlags(p *pass) {
	for _, g := range p.Groups {
		if len(g) < 2 {
			continue
		}
		ref := g[0]
		for _, s := range g[1:] {
			if ref.Model != nil && s.Model != nil && ref.Model.Text != s.Model.Text {
				p.ReportAt(s.Inv, s.Model.Pos, "serve the same model on every node", "model %q differs from %q on %s", s.Model.Text, ref.Model.Text, ref.Inv.Node)
			}
			for _, name := range vllm.DPSameFlags() {
				a, b := settingText(ref, name), settingText(s, name)
				if sameSetting(a, b) || ref.FromConfig(name) || s.FromConfig(name) {
					continue
				}
				at := s.Inv.Pos
				if f := s.Flag(name); f != nil {
					at = f.At.Pos
				}
				p.ReportAt(s.Inv, at, "every node must pass the same model and parallel flags", "--%s is %s here but %s on %s", name, b, a, ref.Inv.Node)
			}
		}
	}
}

// checkDPSize reports different global DP sizes (VL202).
func checkDPSize(p *pass) {
	for _, g := range p.Groups {
		for _, s := range g[1:] {
			a, b := dpText(g[0]), dpText(s)
			if a != b && !g[0].FromConfig("data-parallel-size") && !s.FromConfig("data-parallel-size") {
				p.ReportAt(s.Inv, s.DP().At, "--data-parallel-size is the global size and must match on all nodes", "--data-parallel-size %s differs from %s on %s", b, a, g[0].Inv.Node)
			}
		}
	}
}

// knownLayout returns the DP nodes' local sizes and start ranks when every
// one is resolved (a node template with an unresolved start rank stands for
// an unknown number of nodes, so sums cannot be checked).
func knownLayout(g []*server) (nodes []*server, ok bool) {
	nodes = dpNodes(g)
	if len(nodes) == 0 {
		return nil, false
	}
	for _, s := range nodes {
		if !s.Int("data-parallel-size-local", 0).Set || !s.DPL().Known || !s.StartRank().Known || !s.DP().Known {
			return nil, false
		}
	}
	return nodes, true
}

// checkLocalSum reports local DP sizes that do not add up (VL203).
func checkLocalSum(p *pass) {
	for _, g := range p.Groups {
		nodes, ok := knownLayout(g)
		if !ok || len(nodes) < 2 || hybrid(nodes) {
			continue
		}
		sum, parts := 0, []string{}
		for _, s := range nodes {
			sum += s.DPL().N
			parts = append(parts, fmt.Sprint(s.DPL().N))
		}
		dp := nodes[0].DP()
		if sum != dp.N {
			p.ReportAt(nodes[0].Inv, dp.At, "lint every node's script together; the local sizes must add up to the global size", "local DP sizes %s add up to %d, but --data-parallel-size is %d: vLLM waits forever for the missing ranks", strings.Join(parts, " + "), sum, dp.N)
		}
	}
}

// hybrid reports a deployment whose nodes each serve their own ranks
// (hybrid or multi-port external LB): it has no single primary.
func hybrid(g []*server) bool {
	for _, s := range g {
		if s.Has("data-parallel-hybrid-lb") || s.multiPortLB() {
			return true
		}
	}
	return false
}

// checkStartRanks reports start ranks that are not the sum of the local
// sizes of the nodes before (VL204).
func checkStartRanks(p *pass) {
	for _, g := range p.Groups {
		nodes, ok := knownLayout(g)
		if !ok || len(nodes) < 2 {
			continue
		}
		ordered := primaryFirst(nodes)
		next := 0
		for _, s := range ordered {
			sr := s.StartRank()
			if sr.N != next {
				at := sr.At
				if !sr.Set {
					at = s.Inv.Pos
				}
				p.ReportAt(s.Inv, at, fmt.Sprintf("set --data-parallel-start-rank %d", next), "start rank %d on %s, but the nodes before it own ranks 0..%d", sr.N, s.Inv.Node, next-1)
			}
			next += s.DPL().N
		}
	}
}

// primaryFirst orders nodes by start rank when they have one, keeping input order otherwise.
func primaryFirst(nodes []*server) []*server {
	out := append([]*server{}, nodes...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].StartRank().N < out[j-1].StartRank().N; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// checkPrimary reports zero or several primaries (VL205).
func checkPrimary(p *pass) {
	for _, g := range p.Groups {
		nodes := dpNodes(g)
		if len(nodes) < 2 || hybrid(nodes) {
			continue
		}
		var prim []*server
		for _, s := range nodes {
			if !s.Headless() {
				prim = append(prim, s)
			}
		}
		switch {
		case len(prim) == 0:
			p.ReportAt(nodes[0].Inv, nodes[0].Inv.Pos, "drop --headless on node 0: it runs the API server and the DP coordinator", "every node is --headless: no node serves the API or coordinates the DP ranks")
		case len(prim) > 1:
			for _, s := range prim[1:] {
				p.ReportAt(s.Inv, s.Inv.Pos, "add --headless (and the right --data-parallel-start-rank) on secondary nodes", "second primary: %s also runs without --headless, as does %s", s.Inv.Node, prim[0].Inv.Node)
			}
		}
	}
}

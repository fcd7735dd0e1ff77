package lint

import (
	"sort"
	"strings"
)

// specNodeFor finds the spec node an invocation runs on, by host or VLLM_HOST_IP.
func (p *Pass) specNodeFor(s *Server) int {
	if p.Spec == nil {
		return -1
	}
	ip := hostIP(s)
	for i, n := range p.Spec.Hardware.Nodes {
		if n.Address != "" && (n.Address == ip || n.Address == s.Inv.Host || n.Name == s.Inv.Host) {
			return i
		}
	}
	return -1
}

// specGPUs is the GPU count the spec gives for the invocation's node, or the
// common count when every node has the same.
func (p *Pass) specGPUs(s *Server) int {
	if p.Spec == nil || len(p.Spec.Hardware.Nodes) == 0 {
		return 0
	}
	if i := p.specNodeFor(s); i >= 0 {
		return p.Spec.Hardware.Nodes[i].GPUs
	}
	n := p.Spec.Hardware.Nodes[0].GPUs
	for _, node := range p.Spec.Hardware.Nodes {
		if node.GPUs != n {
			return 0
		}
	}
	return n
}

// checkSpecAddress reports a DP address that is not the spec's first node (VL401).
func checkSpecAddress(p *Pass) {
	if p.Spec == nil || len(p.Spec.Hardware.Nodes) == 0 {
		return
	}
	head := p.Spec.Hardware.Nodes[0]
	for _, s := range p.Servers {
		a, ok := s.Str("data-parallel-address")
		if !ok || !a.Known || a.Text == head.Address || a.Text == head.Name {
			continue
		}
		p.ReportAt(s.Inv, a.Pos, "the spec's first node ("+head.Name+", "+head.Address+") is the primary", "--data-parallel-address %s is not the primary node of the spec", a.Text)
	}
}

// checkUnresolved lists what could not be resolved in a server's arguments
// and environment, so the user knows which checks were skipped (VL004).
func checkUnresolved(p *Pass) {
	seen := map[Pos]bool{}
	for _, s := range p.Servers {
		names := map[string]bool{}
		for _, a := range s.Inv.Args {
			for _, n := range a.Unresolved {
				if !contains(lwsEnv, n) {
					names[n] = true
				}
			}
		}
		if len(names) == 0 || seen[s.Inv.Pos] {
			continue
		}
		seen[s.Inv.Pos] = true
		var list []string
		for n := range names {
			list = append(list, n)
		}
		sort.Strings(list)
		p.ReportAt(s.Inv, s.Inv.Pos, "checks that need these values were skipped", "cannot resolve statically: %s", strings.Join(list, ", "))
	}
}

// checkUncheckedFlags notes flags outside vlaunch's table (VL005).
func checkUncheckedFlags(p *Pass) { checkUnknownFlag(p, "unchecked") }

package lint

import (
	"github.com/vlaunch/vlaunch/vllm"
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

// checkUncheckedFlags notes, once per server, the flags outside vlaunch's
// table whose values therefore go unchecked (VL005).
func checkUncheckedFlags(p *Pass) {
	for _, s := range p.Servers {
		var names []string
		var at Pos
		for _, f := range s.Flags() {
			if f.Spec != nil || !unchecked(f, s) {
				continue
			}
			if len(names) == 0 {
				at = f.At.Pos
			}
			names = append(names, f.Spelling())
		}
		if len(names) > 0 {
			p.ReportAt(s.Inv, at, "", "not in vlaunch's table for vLLM %s, values unchecked: %s", s.Rel, strings.Join(names, ", "))
		}
	}
}

// unchecked reports a flag that is neither known in some release, a
// near-miss of a known one, nor a bad short option (those are VL101/VL102).
func unchecked(f *Flag, s *Server) bool {
	sp := f.Spelling()
	if strings.HasPrefix(sp, "-") && !strings.HasPrefix(sp, "--") && len(sp) > 2 {
		return false
	}
	if _, ok := vllm.KnownFlagEver(sp); ok {
		return false
	}
	return suggestFlag(f.Name, s.Rel) == ""
}

// checkSpecNodeCount reports a deployment whose scripts start a different
// number of nodes than the spec describes (VL402).
func checkSpecNodeCount(p *Pass) {
	if p.Spec == nil || len(p.Spec.Hardware.Nodes) == 0 {
		return
	}
	want := len(p.Spec.Hardware.Nodes)
	for _, g := range p.Groups {
		nodes, ok := knownLayout(g)
		if !ok || len(nodes) < 2 || len(nodes) == want {
			continue
		}
		p.ReportAt(nodes[0].Inv, nodes[0].Inv.Pos, "lint every node's script together, or update the spec", "the scripts start %d nodes but the spec describes %d", len(nodes), want)
	}
}

// checkSpecHostIP reports a VLLM_HOST_IP that is no spec node's address (VL403).
func checkSpecHostIP(p *Pass) {
	if p.Spec == nil || len(p.Spec.Hardware.Nodes) == 0 {
		return
	}
	addrs := map[string]bool{}
	for _, n := range p.Spec.Hardware.Nodes {
		addrs[n.Address] = true
	}
	for _, s := range p.Servers {
		e, ok := s.Inv.LookupEnv("VLLM_HOST_IP")
		if ok && e.Value.Known && !addrs[e.Value.Text] {
			p.ReportAt(s.Inv, e.Value.Pos, "use the node's address from the spec", "VLLM_HOST_IP=%s is not the address of any node in the spec", e.Value.Text)
		}
	}
}

// checkSpecInterface reports socket interfaces that differ from the spec's
// node interface (VL404).
func checkSpecInterface(p *Pass) {
	if p.Spec == nil {
		return
	}
	for _, s := range p.Servers {
		want := p.specInterface(s)
		if want == "" {
			continue
		}
		for _, name := range socketVars {
			e, ok := s.Inv.LookupEnv(name)
			if ok && e.Value.Known && e.Value.Text != want && !strings.HasPrefix(e.Value.Text, "^") {
				p.ReportAt(s.Inv, e.Value.Pos, "the spec says the node-to-node interface is "+want, "%s=%s but the spec's interface is %s", name, e.Value.Text, want)
			}
		}
	}
}

// specInterface is the interface of the invocation's spec node, or the
// common one when all nodes agree.
func (p *Pass) specInterface(s *Server) string {
	nodes := p.Spec.Hardware.Nodes
	if i := p.specNodeFor(s); i >= 0 {
		return nodes[i].Interface
	}
	if len(nodes) == 0 {
		return ""
	}
	for _, n := range nodes {
		if n.Interface != nodes[0].Interface {
			return ""
		}
	}
	return nodes[0].Interface
}

package lint

import "strings"

// specNodeFor finds the spec node an invocation runs on, by host or VLLM_HOST_IP.
func (p *pass) specNodeFor(s *server) int {
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
func (p *pass) specGPUs(s *server) int {
	if p.Spec == nil || len(p.Spec.Hardware.Nodes) == 0 {
		return 0
	}
	if i := p.specNodeFor(s); i >= 0 {
		return p.Spec.Hardware.Nodes[i].GPUs
	}
	// The common count of the nodes that run engines: a P/D router's
	// CPU-only node (gpus: 0, spec.RouterOnlyNode) runs none.
	n, seen := 0, false
	for _, node := range p.Spec.Hardware.Nodes {
		if p.Spec.RouterOnlyNode(node.Name) {
			continue
		}
		if seen && node.GPUs != n {
			return 0
		}
		n, seen = node.GPUs, true
	}
	return n
}

// checkSpecAddress reports a DP address that is not the spec's first node
// (VL401), or with independent replicas, the first node of a replica.
func checkSpecAddress(p *pass) {
	if p.Spec == nil || len(p.Spec.Hardware.Nodes) == 0 {
		return
	}
	_, heads := specReplicaNodes(p)
	head := p.Spec.Hardware.Nodes[0]
	isHead := func(addr string) bool {
		for _, i := range heads {
			if n := p.Spec.Hardware.Nodes[i]; addr == n.Address || addr == n.Name {
				return true
			}
		}
		return false
	}
	for _, s := range p.Servers {
		a, ok := s.Str("data-parallel-address")
		if !ok || !a.Known || isHead(a.Text) {
			continue
		}
		p.ReportAt(s.Inv, a.Pos, p.specWhat()+"'s first node ("+head.Name+", "+head.Address+") is the primary", "--data-parallel-address %s is not the primary node of %s", a.Text, p.specWhat())
	}
}

// checkSpecNodeCount reports a deployment whose scripts start a different
// number of nodes than the spec describes (VL402).
func checkSpecNodeCount(p *pass) {
	if p.Spec == nil || len(p.Spec.Hardware.Nodes) == 0 {
		return
	}
	want, _ := specReplicaNodes(p) // nodes per deployment: one replica's
	for _, g := range p.Groups {
		nodes, ok := knownLayout(g)
		if !ok || len(nodes) < 2 || len(nodes) == want {
			continue
		}
		each := ""
		if p.Spec.Parallelism.ReplicaCount() > 1 {
			each = " per replica"
		}
		p.ReportAt(nodes[0].Inv, nodes[0].Inv.Pos, "lint every node's script together, or update the spec", "the scripts start %d nodes but %s describes %d%s", len(nodes), p.specWhat(), want, each)
	}
}

// checkSpecHostIP reports a VLLM_HOST_IP that is no spec node's address
// (VL403); in a pool of a disaggregated spec, no node of the pool's, and
// VLLM_NIXL_SIDE_CHANNEL_HOST likewise.
func checkSpecHostIP(p *pass) {
	if p.Spec == nil || len(p.Spec.Hardware.Nodes) == 0 {
		return
	}
	addrs := map[string]bool{}
	for _, n := range p.Spec.Hardware.Nodes {
		addrs[n.Address] = true
	}
	vars := []string{"VLLM_HOST_IP"}
	if p.pool != nil {
		// A pool's engines advertise their node to the other pool for
		// the NIXL handshake (a loopback value is VL222's).
		vars = append(vars, nixlHostEnv)
	}
	for _, s := range p.Servers {
		for _, name := range vars {
			e, ok := s.Inv.LookupEnv(name)
			if ok && e.Value.Known && !addrs[e.Value.Text] && !(name == nixlHostEnv && isLoopback(strings.TrimSpace(e.Value.Text))) {
				p.ReportAt(s.Inv, e.Value.Pos, "use the node's address from the spec", "%s=%s is not the address of any node in %s", name, e.Value.Text, p.specWhat())
			}
		}
	}
}

// checkSpecInterface reports socket interfaces that differ from the spec's
// node interface (VL404).
func checkSpecInterface(p *pass) {
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
				p.ReportAt(s.Inv, e.Value.Pos, p.specWhat()+" says the node-to-node interface is "+want, "%s=%s but %s's interface is %s", name, e.Value.Text, p.specWhat(), want)
			}
		}
	}
}

// specInterface is the interface of the invocation's spec node, or the
// common one when all nodes agree.
func (p *pass) specInterface(s *server) string {
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

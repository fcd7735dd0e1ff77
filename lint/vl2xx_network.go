package lint

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
)

// checkAddress reports a DP address that differs, is missing or is loopback (VL206).
func checkAddress(p *pass) {
	for _, g := range p.Groups {
		// One invocation alone may be several DP processes on one host
		// (mpirun, a loop over ranks), where loopback is right.
		nodes := dpNodes(g)
		if len(nodes) < 2 {
			continue
		}
		ref, refOK := nodes[0].Str("data-parallel-address")
		for i, s := range nodes {
			a, ok := s.Str("data-parallel-address")
			switch {
			case !ok && s.FromConfig("data-parallel-address"):
			case !ok:
				p.ReportAt(s.Inv, s.Inv.Pos, "add --data-parallel-address <node 0 IP> on every node", "multi-node DP without --data-parallel-address: it defaults to 127.0.0.1 and the nodes never meet")
			case a.Known && isLoopback(a.Text):
				p.ReportAt(s.Inv, a.Pos, "use node 0's routable IP", "--data-parallel-address %s is a loopback address in a multi-node deployment", a.Text)
				// An unresolved address (node 0's $local_ip) may well be the
			// literal the others name: only two known values can differ.
			case i > 0 && refOK && ref.Known && a.Known && a.Text != ref.Text:
				p.ReportAt(s.Inv, a.Pos, "all nodes must point at node 0", "--data-parallel-address %s differs from %s on %s", a.Text, ref.Text, nodes[0].Inv.Node)
			}
		}
		checkAddressIsPrimary(p, nodes, ref, refOK)
	}
}

// checkAddressIsPrimary compares the address with the primary's own IP when known.
func checkAddressIsPrimary(p *pass, nodes []*server, addr launch.Value, ok bool) {
	if !ok || !addr.Known || !isIPv4(addr.Text) {
		return
	}
	for _, s := range nodes {
		if s.Headless() {
			continue
		}
		ip := hostIP(s)
		if ip != "" && ip != addr.Text && !isLoopback(addr.Text) {
			p.ReportAt(s.Inv, addr.Pos, "point --data-parallel-address at the primary (the node without --headless)", "--data-parallel-address %s is not the primary's address (%s)", addr.Text, ip)
		}
		return
	}
}

// hostIP is the node's own address as the script states it.
func hostIP(s *server) string {
	if e, ok := s.Inv.LookupEnv("VLLM_HOST_IP"); ok && e.Value.Known {
		return e.Value.Text
	}
	if isIPv4(s.Inv.Host) {
		return s.Inv.Host
	}
	return ""
}

func isIPv4(h string) bool {
	var a, b, c, d int
	n, err := fmt.Sscanf(h, "%d.%d.%d.%d", &a, &b, &c, &d)
	return err == nil && n == 4
}

// checkRPCPort reports different DP RPC ports (VL207).
func checkRPCPort(p *pass) {
	for _, g := range p.Groups {
		nodes := dpNodes(g)
		for _, s := range nodes[min(1, len(nodes)):] {
			a, b := settingText(nodes[0], "data-parallel-rpc-port"), settingText(s, "data-parallel-rpc-port")
			if a != b && !nodes[0].FromConfig("data-parallel-rpc-port") && !s.FromConfig("data-parallel-rpc-port") {
				at := s.Int("data-parallel-rpc-port", 0).At
				p.ReportAt(s.Inv, at, "use the same --data-parallel-rpc-port everywhere", "--data-parallel-rpc-port %s differs from %s on %s", b, a, nodes[0].Inv.Node)
			}
		}
	}
}

// socketVars are the variables that pick the interface for Gloo and NCCL bootstrap.
var socketVars = []string{"GLOO_SOCKET_IFNAME", "NCCL_SOCKET_IFNAME"}

// checkSocketIfname reports socket interfaces set on some nodes only, or
// Gloo and NCCL pointed at different interfaces on one node (VL208).
func checkSocketIfname(p *pass) {
	for _, g := range p.Groups {
		if !multiNode(g) {
			continue
		}
		for _, name := range socketVars {
			var set, unset []*server
			for _, s := range g {
				if _, ok := s.Inv.LookupEnv(name); ok {
					set = append(set, s)
				} else {
					unset = append(unset, s)
				}
			}
			if len(set) > 0 {
				for _, s := range unset {
					if s.Inv.EnvOpen {
						continue
					}
					p.ReportAt(s.Inv, s.Inv.Pos, "set "+name+" on every node", "%s is set on %s but not here", name, set[0].Inv.Node)
				}
			}
		}
		for _, s := range g {
			gl, ok1 := s.Inv.LookupEnv("GLOO_SOCKET_IFNAME")
			nc, ok2 := s.Inv.LookupEnv("NCCL_SOCKET_IFNAME")
			if ok1 && ok2 && gl.Value.Known && nc.Value.Known && gl.Value.Text != nc.Value.Text && nc.Value.Text[0] != '^' && nc.Value.Text[0] != '=' {
				p.ReportAt(s.Inv, nc.Pos, "use the node-to-node interface for both", "GLOO_SOCKET_IFNAME=%s but NCCL_SOCKET_IFNAME=%s", gl.Value.Text, nc.Value.Text)
			}
		}
	}
}

// checkNoSocketIfname notes a multi-node deployment that sets no socket
// interface at all (VL209).
func checkNoSocketIfname(p *pass) {
	for _, g := range p.Groups {
		ray := len(g) == 1 && p.rayAcrossNodes(g[0])
		if !multiNode(g) && !ray {
			continue
		}
		invs := make([]*launch.Invocation, 0, len(g))
		for _, s := range g {
			invs = append(invs, s.Inv)
		}
		if ray {
			invs = append(invs, p.Rays...) // the Ray workers' own environment counts
		}
		any := false
		for _, inv := range invs {
			any = any || inv.EnvOpen
			for _, n := range socketVars {
				if _, ok := inv.LookupEnv(n); ok {
					any = true
				}
			}
		}
		if !any {
			s := g[0]
			sev, why := diag.Info, "on hosts with several NICs start-up can hang"
			if c := sharedHostNICs(g); c != nil {
				sev, why = diag.Warning, "the containers share the host's network (they see docker0, veth and RDMA interfaces too), where Gloo falls back to loopback (\"Gloo connectFullMesh failed\") or picks the wrong NIC"
			}
			p.ReportAtSeverity(s.Inv, s.Inv.Pos, sev, "export GLOO_SOCKET_IFNAME and NCCL_SOCKET_IFNAME=<inter-node interface> on every node", "no node sets GLOO_SOCKET_IFNAME/NCCL_SOCKET_IFNAME; %s", why)
		}
	}
}

// checkHostIP reports VLLM_HOST_IP shared by several nodes or loopback (VL210).
func checkHostIP(p *pass) {
	for _, g := range p.Groups {
		if !multiNode(g) {
			continue
		}
		seen := map[string]*server{}
		for _, s := range g {
			e, ok := s.Inv.LookupEnv("VLLM_HOST_IP")
			if !ok || !e.Value.Known {
				continue
			}
			if isLoopback(e.Value.Text) {
				p.ReportAt(s.Inv, e.Value.Pos, "use this node's routable IP", "VLLM_HOST_IP=%s is loopback; other nodes cannot reach it", e.Value.Text)
			} else if prev, dup := seen[e.Value.Text]; dup {
				p.ReportAt(s.Inv, e.Value.Pos, "each node advertises its own IP", "VLLM_HOST_IP=%s is also set on %s", e.Value.Text, prev.Inv.Node)
			}
			seen[e.Value.Text] = s
		}
	}
}

// checkBackendSame reports different all-to-all backends across nodes (VL211).
func checkBackendSame(p *pass) {
	for _, g := range p.Groups {
		if len(g) < 2 {
			continue
		}
		ref, _, refSet := g[0].Backend()
		for _, s := range g[1:] {
			b, at, set := s.Backend()
			if b != ref && (set || refSet) {
				p.ReportAt(s.Inv, at, "select the same backend on every node (flag or VLLM_ALL2ALL_BACKEND)", "all-to-all backend %s differs from %s on %s", b, ref, g[0].Inv.Node)
			}
		}
	}
}

// sharedHostNICs returns a container of the group that uses the host's
// network stack, nil when none does.
func sharedHostNICs(g []*server) *launch.Container {
	for _, s := range g {
		if c := s.Inv.Container; c != nil && c.SharesHostNICs {
			return c
		}
	}
	return nil
}

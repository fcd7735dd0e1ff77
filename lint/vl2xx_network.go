package lint

import (
	"fmt"
	"regexp"
	"strings"

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
				n := len(*p.out)
				p.ReportAt(s.Inv, a.Pos, "use node 0's routable IP", "--data-parallel-address %s is a loopback address in a multi-node deployment", a.Text)
				onlyDefault(p, n, a, "node 0's routable IP")
				// An unresolved address (node 0's $local_ip) may well be the
			// literal the others name: only two known values can differ.
			case i > 0 && refOK && ref.Known && a.Known && a.Text != ref.Text:
				p.ReportAt(s.Inv, a.Pos, "all nodes must point at node 0", "--data-parallel-address %s differs from %s on %s", a.Text, ref.Text, nodes[0].Inv.Node)
			}
		}
		checkAddressIsPrimary(p, nodes, ref, refOK)
	}
	checkFollowerOwnAddress(p)
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
			if ok1 && ok2 && gl.Value.Known && nc.Value.Known && gl.Value.Text != nc.Value.Text && nc.Value.Text != "" && nc.Value.Text[0] != '^' && nc.Value.Text[0] != '=' {
				p.ReportAt(s.Inv, nc.Pos, "use the node-to-node interface for both", "GLOO_SOCKET_IFNAME=%s but NCCL_SOCKET_IFNAME=%s", gl.Value.Text, nc.Value.Text)
			}
		}
	}
}

// checkNoSocketIfname notes a multi-node deployment that sets no socket
// interface at all (VL209).
func checkNoSocketIfname(p *pass) {
	for _, g := range p.Groups {
		ray := len(g) == 1 && p.onRayCluster(g[0])
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
				n := len(*p.out)
				p.ReportAt(s.Inv, e.Value.Pos, "use this node's routable IP", "VLLM_HOST_IP=%s is loopback; other nodes cannot reach it", e.Value.Text)
				onlyDefault(p, n, e.Value, "this node's routable IP")
			} else if prev, dup := seen[e.Value.Text]; dup && !p.declaredOneHost(prev, s) {
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

// ownAddressEnv are variables that hold the node's own address: vLLM's
// VLLM_HOST_IP and HCCL_IF_IP of Ascend's collective library.
var ownAddressEnv = []string{"VLLM_HOST_IP", "HCCL_IF_IP"}

// ownIPName matches variable names that say "this node's address":
// local_ip, LOCAL_IP, POD_IP, MY_IP, CURRENT_NODE_IP, SELF_ADDR...
var ownIPName = regexp.MustCompile(`(?i)^(local|this|self|my|own|current|cur|pod)_?(node_?|host_?)?(ip|ipv4|addr|address|ip_?addr(ess)?)$`)

// ownIPCommand matches a command substitution that prints the host's own
// address: hostname -i / -I, ip addr / ip route get, ifconfig.
var ownIPCommand = regexp.MustCompile(`\$\(\s*(hostname\s+(-[iI]|--ip-address|--all-ip-addresses)|ip\s+(-\d\s+)?(a|addr|address|route)\b|ifconfig)|` + "`" + `\s*hostname\s+-[iI]`)

// checkFollowerOwnAddress reports a follower — a --headless node, or a
// per-rank launcher whose first rank is not 0 — whose DP address is its own
// address: the variable it also gives VLLM_HOST_IP or HCCL_IF_IP, a name
// such as $local_ip or $POD_IP, or `hostname -I`. Every node must name the
// DP master (rank 0's node); a follower pointing at itself waits for a
// coordinator that never answers (VL206).
func checkFollowerOwnAddress(p *pass) {
	for _, s := range p.Servers {
		if !isFollower(s) {
			continue
		}
		a, ok := s.Str("data-parallel-address")
		if !ok {
			continue
		}
		why := ownAddress(p, s, a)
		if why == "" {
			continue
		}
		at := a.Pos
		if f := s.Flag("data-parallel-address"); f != nil && f.At.Pos.Line > 0 && f.At.Pos.Line != at.Line {
			at = f.At.Pos // the value comes from a variable set elsewhere
		}
		p.ReportAt(s.Inv, at, "point every node's --data-parallel-address at the DP master (the node that runs rank 0)",
			"this node is not the DP master, but its --data-parallel-address is %s, i.e. its own address: it waits for a coordinator on itself", why)
	}
}

// isFollower reports a server that does not host DP rank 0.
func isFollower(s *server) bool {
	if s.Headless() {
		return true
	}
	if s.Inv.Launcher == "launch_online_dp.py" {
		if r, ok := s.Str("data-parallel-rank"); ok && r.Known && r.Text != "0" {
			return true
		}
	}
	return false
}

// ownAddress explains why a is the node's own address, or returns "".
func ownAddress(p *pass, s *server, a launch.Value) string {
	for _, name := range ownAddressEnv {
		e, ok := s.Inv.LookupEnv(name)
		if !ok {
			continue
		}
		v := e.Value
		if v.Pos == a.Pos && v.Pos.Line > 0 && !v.Known {
			return fmt.Sprintf("the value this node also gives %s", name)
		}
		if v.Known && a.Known && v.Text == a.Text && v.Text != "" && !sharedHostIP(p, s, name, v.Text) {
			return fmt.Sprintf("%s, which this node also gives %s", v.Text, name)
		}
	}
	if a.Known {
		return ""
	}
	for _, w := range []string{a.Text, rawFlagValue(p, s, "data-parallel-address")} {
		if ownIPCommand.MatchString(w) {
			return w + " (this host's address)"
		}
		if name := varName(w); name != "" && ownIPName.MatchString(name) {
			return w
		}
	}
	return ""
}

// sharedHostIP reports another server with the same own-address value:
// then the variable was copied from the master (VL210 says so), not the
// DP address set wrong.
func sharedHostIP(p *pass, s *server, name, ip string) bool {
	for _, o := range p.Servers {
		if o == s {
			continue
		}
		if e, ok := o.Inv.LookupEnv(name); ok && e.Value.Known && e.Value.Text == ip {
			return true
		}
	}
	return false
}

// varName returns NAME for a value that is exactly $NAME, ${NAME} or $(NAME).
func varName(w string) string {
	w = strings.Trim(w, `"'`)
	switch {
	case strings.HasPrefix(w, "${") && strings.HasSuffix(w, "}"):
		w = w[2 : len(w)-1]
	case strings.HasPrefix(w, "$(") && strings.HasSuffix(w, ")"):
		w = w[2 : len(w)-1]
	case strings.HasPrefix(w, "$"):
		w = w[1:]
	default:
		return ""
	}
	for _, r := range w {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return ""
		}
	}
	return w
}

// rawFlagValue is the source text of the word after a flag in a shell file
// (`$local_ip` where the resolved value is the placeholder it was set to),
// or "" when the flag is not written literally there.
func rawFlagValue(p *pass, s *server, name string) string {
	f := s.Flag(name)
	if f == nil {
		return ""
	}
	var data []byte
	for _, sc := range p.Scripts {
		if sc.Name() == s.Inv.File && !sc.Derived() {
			data = sc.Data()
			break
		}
	}
	lines := strings.Split(string(data), "\n")
	at := f.At.Pos
	if at.Line < 1 || at.Line > len(lines) || at.Col < 1 || at.Col > len(lines[at.Line-1]) {
		return ""
	}
	rest := lines[at.Line-1][at.Col-1:]
	spell := f.At.Text
	if !strings.HasPrefix(rest, spell) {
		return ""
	}
	rest = rest[len(spell):]
	if !strings.Contains(spell, "=") {
		rest = strings.TrimLeft(rest, " \t")
		if (rest == `\` || rest == "") && at.Line < len(lines) {
			rest = strings.TrimLeft(lines[at.Line], " \t")
		}
	}
	if i := strings.IndexAny(rest, " \t"); i >= 0 && !strings.HasPrefix(rest, "$(") {
		rest = rest[:i]
	}
	return rest
}

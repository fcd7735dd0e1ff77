package preflight

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
)

func checkNetInterface(_ context.Context, e *env) Result {
	name := e.node.Interface
	if name == "" {
		if e.opts.RouterOnly {
			return skip("no interface declared: the router's HTTP to its workers needs none (net.route shows the routes it takes)")
		}
		if !e.multiNode() {
			return skip("single node and no interface declared: no traffic between nodes")
		}
		return warn("no interface declared", fmt.Sprintf("hardware.nodes[%d].interface", e.specIdx()),
			"set interface: to the node-to-node NIC so the bundle can set GLOO_SOCKET_IFNAME/NCCL_SOCKET_IFNAME (without them startup can hang)")
	}
	ifs, err := e.host.Net.Interfaces()
	if err != nil {
		return fail("cannot list interfaces: "+err.Error(), name+" up", "")
	}
	ifc, ok := findIface(ifs, name)
	want := name + " exists, up, with carrier"
	switch {
	case !ok:
		return fail(fmt.Sprintf("no interface %s (present: %s)", name, ifaceNames(ifs)), want,
			"fix hardware.nodes[].interface to one of the present interfaces")
	case !ifc.Up:
		return fail(name+" is down", want, "bring it up: `ip link set "+name+" up`")
	case !ifc.Running:
		return fail(name+" is up but has no carrier", want, "check the cable / switch port (`ip link show "+name+"`)")
	}
	return pass(name+" up", want)
}

func checkNetAddress(_ context.Context, e *env) Result {
	addr, ok := parseIP(e.node.Address)
	if !ok {
		return warn(fmt.Sprintf("address %q is not an IP literal; not resolved (that would send DNS traffic)", e.node.Address),
			"an IP address on this host", "use the node's IP address in hardware.nodes[].address")
	}
	ifs, err := e.host.Net.Interfaces()
	if err != nil {
		return fail("cannot list interfaces: "+err.Error(), addr.String(), "")
	}
	want := addr.String()
	if e.node.Interface != "" {
		want += " on " + e.node.Interface
	}
	holder, ok := ifaceWithAddr(ifs, addr)
	if !ok {
		return fail(fmt.Sprintf("%s is on no interface (this host has %s)", addr, hostAddrs(ifs)), want,
			"run this node's bundle on the host that owns the address, or fix hardware.nodes[].address")
	}
	if e.node.Interface != "" && holder != e.node.Interface {
		return fail(fmt.Sprintf("%s is on %s", addr, holder), want, "set interface: "+holder+", or move the address")
	}
	return pass(addr.String()+" on "+holder, want)
}

func checkNetRoute(ctx context.Context, e *env) Result {
	if e.opts.RouterOnly {
		return checkRouterRoute(ctx, e)
	}
	if !e.multiNode() {
		return skip("single node: no peers")
	}
	ifs, err := e.host.Net.Interfaces()
	if err != nil {
		return fail("cannot list interfaces: "+err.Error(), "", "")
	}
	wantIf := e.node.Interface
	if wantIf == "" {
		if a, ok := parseIP(e.node.Address); ok {
			wantIf, _ = ifaceWithAddr(ifs, a)
		}
	}
	if wantIf == "" {
		return fail("cannot tell which interface should carry node traffic", "a declared interface or address on this host", "set hardware.nodes[].interface")
	}
	var bad, good []string
	for i, n := range e.d.Hardware.Nodes {
		if i == e.idx {
			continue
		}
		if msg := routeProblem(ctx, e, ifs, n, wantIf); msg != "" {
			bad = append(bad, msg)
		} else {
			good = append(good, n.Name)
		}
	}
	want := "every peer reached through " + wantIf
	if len(bad) > 0 {
		return fail(strings.Join(bad, "; "), want, "add or fix the route (`ip route get <peer>`), or declare the interface the kernel uses")
	}
	return pass(fmt.Sprintf("%d peers via %s", len(good), wantIf), want)
}

// routeProblem asks the kernel which source address it would use for peer
// and names the problem, or returns "".
func routeProblem(ctx context.Context, e *env, ifs []Interface, peer specNode, wantIf string) string {
	addr, ok := parseIP(peer.Address)
	if !ok {
		return fmt.Sprintf("%s: %q is not an IP literal (not resolved)", peer.Name, peer.Address)
	}
	src, err := e.host.Net.RouteSource(ctx, addr)
	if err != nil {
		return fmt.Sprintf("%s (%s): no route: %v", peer.Name, addr, err)
	}
	via, _ := ifaceWithAddr(ifs, src)
	if via != wantIf {
		return fmt.Sprintf("%s (%s) via %s (source %s)", peer.Name, addr, orUnknown(via), src)
	}
	return ""
}

func checkPrimaryLoopback(_ context.Context, e *env) Result {
	p := e.primary()
	want := "a non-loopback address other nodes can reach"
	if !e.multiNode() {
		return pass(p.Address+" (single node: loopback would be fine)", want)
	}
	if isLoopbackName(p.Address) {
		return fail(fmt.Sprintf("primary %s address %s is loopback", p.Name, p.Address), want,
			"set hardware.nodes[0].address to the primary's LAN address: every node dials it as --data-parallel-address")
	}
	return pass(fmt.Sprintf("primary %s at %s", p.Name, p.Address), want)
}

func isLoopbackName(s string) bool {
	if strings.EqualFold(s, "localhost") || strings.HasPrefix(strings.ToLower(s), "localhost.") {
		return true
	}
	a, ok := parseIP(s)
	return ok && (a.IsLoopback() || a.IsUnspecified())
}

func parseIP(s string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(strings.TrimSpace(s))
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

func findIface(ifs []Interface, name string) (Interface, bool) {
	for _, i := range ifs {
		if i.Name == name {
			return i, true
		}
	}
	return Interface{}, false
}

func ifaceWithAddr(ifs []Interface, a netip.Addr) (string, bool) {
	for _, i := range ifs {
		for _, p := range i.Addrs {
			if p.Addr() == a {
				return i.Name, true
			}
		}
	}
	return "", false
}

func ifaceNames(ifs []Interface) string {
	names := make([]string, len(ifs))
	for i, f := range ifs {
		names[i] = f.Name
	}
	return orUnknown(strings.Join(names, ", "))
}

func hostAddrs(ifs []Interface) string {
	var out []string
	for _, i := range ifs {
		for _, p := range i.Addrs {
			out = append(out, i.Name+" "+p.String())
		}
	}
	return orUnknown(strings.Join(out, ", "))
}

func orUnknown(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

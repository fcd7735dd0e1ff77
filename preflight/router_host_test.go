package preflight

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// cpuRouterHost turns the 4-node H20 spec into a colocated deployment
// behind its top-level router on a CPU-only node: node0 becomes gw
// (gpus: 0, the h20-roce host's address 192.168.1.10) and moves to the end
// of hardware.nodes, the 24 DP ranks run on node1-node3 (external load
// balancing, one vllm serve per rank on vllm.port + its place on the
// node), and vllm-router listens on 9000 on gw.
func cpuRouterHost(d *spec.Deployment) {
	gw := d.Hardware.Nodes[0]
	gw.Name, gw.GPUs, gw.RDMADevices = "gw", 0, nil
	d.Hardware.Nodes = append(d.Hardware.Nodes[1:], gw)
	d.Parallelism.Data = 24
	d.Router = &spec.Router{Kind: spec.RouterKindVLLM, Policy: spec.RouterPolicyRoundRobin, Node: "gw", Port: 9000}
}

// routerHostRun runs the router-only checks on gw as the command does
// (RouterOnly, the router's port, gw's index in hardware.nodes as
// written) on the h20-roce host, with the given host edits.
func routerHostRun(t *testing.T, edit func(*Host), only ...string) Report {
	t.Helper()
	return runFixtureOpts(t, "h20-roce", "h20-roce", "gw", cpuRouterHost, func(o *Options) {
		o.RouterOnly, o.RouterPort, o.SpecIndex = true, 9000, 3
		if edit != nil {
			edit(&o.Host)
		}
	}, only...)
}

// TestColocatedRouterCPUHost: the CPU-only node of a colocated router,
// which the engines' view of the spec leaves out, gets the router's
// checks (its program, its port and metrics port, its address and
// interface, a route to every DP rank router.sh names) and skips every
// engine check; findings point at its place in hardware.nodes as written.
func TestColocatedRouterCPUHost(t *testing.T) {
	rep := routerHostRun(t, nil)
	if rep.Node != "gw" {
		t.Errorf("report node %q, want gw", rep.Node)
	}
	for _, id := range []string{"gpu.count", "gpu.driver", "rdma.devices", "model.path", "sw.vllm_version", "host.shm", "net.primary_loopback"} {
		wantResult(t, resultOf(t, rep, id), Skip, "runs only the router in front of the DP ranks (router.node, gpus: 0)")
	}
	wantResult(t, resultOf(t, rep, "sw.router"), Pass, "vllm-router 0.1.0")
	if r := resultOf(t, rep, "sw.router"); r.Path != "router" {
		t.Errorf("sw.router path %q, want router", r.Path)
	}
	wantResult(t, resultOf(t, rep, "ports.free"), Pass, "free: 9000, 29000", "router in front of the DP ranks (router.port)")
	addr := resultOf(t, rep, "net.address")
	wantResult(t, addr, Pass, "192.168.1.10 on eth0")
	if addr.Path != "hardware.nodes[3].address" {
		t.Errorf("net.address path %q, want gw's hardware.nodes[3].address", addr.Path)
	}
	route := resultOf(t, rep, "net.route")
	wantResult(t, route, Pass, "node1 via eth0, node2 via eth0, node3 via eth0")
	for _, ep := range []string{"node1 192.168.1.11 (DP ranks: 8000, 8001, 8002, 8003, 8004, 8005, 8006, 8007)", "node3 192.168.1.13 (DP ranks: 8000,"} {
		if !strings.Contains(route.Expected, ep) {
			t.Errorf("net.route expected %q does not name %q", route.Expected, ep)
		}
	}
}

// TestColocatedRouterCPUHostFails: the router's port taken, a rank's node
// without a route and no vllm-router each fail on the router's host.
func TestColocatedRouterCPUHostFails(t *testing.T) {
	rep := routerHostRun(t, func(h *Host) {
		n := h.Net.(fakeNetwork)
		n.inUse[9000] = true
		for dst := range n.routes {
			if dst.String() == "192.168.1.12" {
				delete(n.routes, dst)
			}
		}
		h.Cmd = fakeRunner{} // nothing installed
	}, "ports.free", "net.route", "sw.router")
	ports := resultOf(t, rep, "ports.free")
	wantResult(t, ports, Fail, "9000 in use")
	if ports.Path != "router.port" {
		t.Errorf("ports.free path %q, want router.port", ports.Path)
	}
	wantResult(t, resultOf(t, rep, "net.route"), Fail, "node2 (192.168.1.12): no route")
	wantResult(t, resultOf(t, rep, "sw.router"), Fail, "vllm-router is not on PATH")
}

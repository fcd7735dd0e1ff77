package preflight

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/vlaunch/vlaunch/vllm"
)

// boundPort is one port the bundle makes this node listen on.
type boundPort struct {
	Port int
	What string
}

// portsFor lists what this node binds: its engines' ports read from the
// generated bundle's commands (bundlePorts, for colocated specs, P/D pools
// and Kubernetes alike) and, on a prefill node of a connector with a
// bootstrap server, those servers' ports (bootstrapPorts). The P/D router's
// port is added by checkPortsFree (Options.RouterPort); the NIXL side
// channel has a check of its own (ports.nixl_side_channel). ok is false
// when the generator refuses the spec: there is no bundle to read.
func (e *env) portsFor() (ps []boundPort, ok bool) {
	ps, ok = e.bundlePorts()
	return append(ps, e.bootstrapPorts()...), ok
}

// bootstrapPorts are the bootstrap server ports of the pool's instances
// that start on this node: resolve.SideChannel.Bootstrap, computed by the
// one function the generator also writes the scripts' port with
// (vllm.PDBundle.BootstrapPort; generator.addBootstrapEnv) and validate
// checks (SPEC129). On Kubernetes a pod binds its slot-0 instance's only.
func (e *env) bootstrapPorts() []boundPort {
	var ps []boundPort
	for _, sc := range e.sideChannels() {
		if sc.Bootstrap == 0 || (e.d.Runtime.Kind == "kubernetes" && sc.SubNode && sc.Slot != 0) {
			continue
		}
		ps = append(ps, boundPort{sc.Bootstrap, fmt.Sprintf("Mooncake bootstrap server of the %s instance in slot %d (%s)", e.opts.Role.Name, sc.Slot, vllm.MooncakeBootstrapPortEnv)})
	}
	return ps
}

// routerPortWhat names the P/D router's port in the check's messages,
// colocatedRouterPortWhat a colocated deployment's top-level router's and
// routerMetricsWhat either router's Prometheus metrics port.
const (
	routerPortWhat          = "the P/D router (disaggregation.router.port)"
	colocatedRouterPortWhat = "the router in front of the DP ranks (router.port)"
	routerMetricsWhat       = "the router's Prometheus metrics (vllm-router --prometheus-port, router.sh)"
)

func checkPortsFree(_ context.Context, e *env) Result {
	var ps []boundPort
	if !e.opts.RouterOnly { // a node in neither pool binds the router's port alone
		var ok bool
		if ps, ok = e.portsFor(); !ok && e.opts.RouterPort == 0 {
			return skip("the generator refuses this spec (see `vlaunch generate`): there is no bundle whose commands name the ports to check")
		}
	}
	what, path := routerPortWhat, "disaggregation.router.port"
	if e.r != nil && e.r.PD == nil && e.r.Router != nil {
		what, path = colocatedRouterPortWhat, "router.port"
	}
	if e.opts.RouterPort > 0 {
		// router.sh runs on disaggregation.router.node (a colocated
		// deployment's router.node) and binds its port there, whether or
		// not the node also serves an API, and vllm-router's Prometheus
		// metrics port (--prometheus-port, which router.sh writes:
		// vllm.RouterMetricsPort, on 127.0.0.1).
		rp := []boundPort{{e.opts.RouterPort, what}}
		if e.r == nil || e.r.PD == nil || !e.r.PD.Router.LLMD() {
			rp = append(rp, boundPort{vllm.RouterMetricsPort, routerMetricsWhat})
		}
		ps = append(rp, ps...)
	}
	if len(ps) == 0 {
		return skip(fmt.Sprintf("%s is headless: it binds no fixed port (it connects to the primary)", e.node.Name))
	}
	var want, busy, free []string
	routerOnly := true // every busy port is the router's: the finding points at it
	for _, p := range ps {
		want = append(want, fmt.Sprintf("%d (%s)", p.Port, p.What))
		if err := e.host.Net.PortFree(p.Port); err != nil {
			busy = append(busy, fmt.Sprintf("%d %s", p.Port, portProblem(err)))
			routerOnly = routerOnly && (p.What == what || p.What == routerMetricsWhat)
		} else {
			free = append(free, fmt.Sprint(p.Port))
		}
	}
	expected := "free: " + strings.Join(want, ", ")
	if len(busy) > 0 {
		r := fail(strings.Join(busy, "; "), expected, "stop what listens there (`ss -ltnp 'sport = :PORT'`) or change the port in the spec")
		if routerOnly {
			r.Path = path
		}
		return r
	}
	return pass("free: "+strings.Join(free, ", "), expected)
}

func portProblem(err error) string {
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return "in use"
	case errors.Is(err, syscall.EACCES):
		return "needs root (privileged port)"
	}
	return "cannot bind: " + err.Error()
}

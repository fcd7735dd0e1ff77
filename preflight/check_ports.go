package preflight

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// boundPort is one port the bundle makes this node listen on.
type boundPort struct {
	Port int
	What string
}

// portsFor lists what this node binds. Outside P/D pools and Kubernetes
// they are read from the generated bundle's own commands for the node
// (bundlePorts: the API --port, --data-parallel-rpc-port, --master-port of
// a non-headless `vllm serve`, a Ray head's --port); the rest of this
// comment describes the derivation that remains for P/D pools and pods,
// and for specs the generator refuses. The primary (of each replica) runs
// the API server (--port) and, with engines on other nodes, the DP RPC
// endpoint (--data-parallel-rpc-port). Headless nodes dial out and bind no
// fixed port.
//
// Replicas smaller than a node share it (resolve.Place): the generator
// gives the one in slot k vllm.port + k and, with DP inside it,
// vllm.rpc_port + k, so each of them is checked here. On Kubernetes each
// such replica is a pod of its own on the pod network binding slot 0's
// ports (templates/kubernetes/lws.yaml.tmpl; resolve.PortProblems), and
// preflight runs inside one pod: that pod's ports only.
//
// A decode node behind llm-d's router (resolve.Role.SidecarPort) runs the
// routing sidecar on vllm.port in front of the engine, which listens on
// disaggregation.router.decode_port (the pool's view's vllm.port): both
// must be free.
//
// A pool on a node both P/D pools share (resolve.NodeShare) runs each of
// its instances there in slot FirstSlot + k: its ports are vllm.port +
// slot and, with DP, vllm.rpc_port + slot, the other pool's slots below or
// above (sharedPorts).
//
// A prefill node of a connector with a bootstrap server (MooncakeConnector)
// also binds each of its instances' bootstrap port (bootstrapPorts).
func (e *env) portsFor() []boundPort {
	return append(e.enginePorts(), e.bootstrapPorts()...)
}

// bootstrapPorts are the bootstrap server ports of the pool's instances
// that start on this node: resolve.SideChannel.Bootstrap, the port the
// generator writes (vllm.PDBundle.BootstrapPort) and validate checks
// (SPEC129). On Kubernetes a pod binds its slot-0 instance's only.
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

// enginePorts are the API servers', routing sidecars' and DP RPC ports
// this node binds.
func (e *env) enginePorts() []boundPort {
	if e.share().Shared {
		return e.sharedPorts()
	}
	if ps, ok := e.bundlePorts(); ok {
		return ps
	}
	if !e.isPrimary() {
		return nil
	}
	api, sidecar := "API server (vllm.port)", 0
	if e.opts.Role != nil {
		sidecar = e.opts.Role.SidecarPort
	}
	var ps []boundPort
	if sidecar > 0 {
		api = "decode engine behind llm-d's routing sidecar (disaggregation.router.decode_port)"
		ps = append(ps, boundPort{sidecar, "llm-d's routing sidecar (vllm.port)"})
	}
	ps = append(ps, boundPort{e.d.VLLM.Port, api})
	if e.multiNode() {
		ps = append(ps, boundPort{e.d.VLLM.RPCPort, "DP RPC (vllm.rpc_port)"})
	}
	here := e.replicasHere()
	if here > 1 && e.d.Parallelism.Data > 1 && !e.multiNode() {
		ps = append(ps, boundPort{e.d.VLLM.RPCPort, "DP RPC (vllm.rpc_port)"})
	}
	if e.d.Runtime.Kind == "kubernetes" {
		here = 1 // this pod's ports: the other replicas' pods have their own IPs
	}
	for k := 1; k < here; k++ {
		if sidecar > 0 {
			ps = append(ps, boundPort{sidecar + k, fmt.Sprintf("llm-d's routing sidecar of the node's replica %d (vllm.port + %d)", k+1, k)})
		}
		ps = append(ps, boundPort{e.d.VLLM.Port + k, fmt.Sprintf("API server of the node's replica %d (vllm.port + %d)", k+1, k)})
		if e.d.Parallelism.Data > 1 {
			ps = append(ps, boundPort{e.d.VLLM.RPCPort + k, fmt.Sprintf("DP RPC of the node's replica %d (vllm.rpc_port + %d)", k+1, k)})
		}
	}
	return ps
}

// sharedPorts are the ports of the pool's instances on a node it shares
// with the other pool: each instance's site (Deployment.Place, the
// generator's rule) carries its slot on the node, as resolve.PortProblems
// and the generator read it.
func (e *env) sharedPorts() []boundPort {
	pl, err := e.r.Place()
	if err != nil {
		return nil // validate refuses such a spec; nothing to check
	}
	pool, v := e.opts.Role.Name, e.d.VLLM
	sidecar := e.opts.Role.SidecarPort
	var ps []boundPort
	for _, s := range pl.Sites {
		if s.Node != e.idx {
			continue
		}
		gpus := fmt.Sprintf("GPUs %d-%d", s.FirstGPU, s.FirstGPU+s.GPUs-1)
		if sidecar > 0 {
			ps = append(ps, boundPort{sidecar + s.Slot, fmt.Sprintf("llm-d's routing sidecar of the %s instance on %s (vllm.port + %d)", pool, gpus, s.Slot)})
		}
		ps = append(ps, boundPort{v.Port + s.Slot, fmt.Sprintf("API server of the %s instance on %s (vllm.port + %d)", pool, gpus, s.Slot)})
		if e.r.Layout.DP > 1 {
			ps = append(ps, boundPort{v.RPCPort + s.Slot, fmt.Sprintf("DP RPC of the %s instance on %s (vllm.rpc_port + %d)", pool, gpus, s.Slot)})
		}
	}
	return ps
}

// replicasHere is how many replicas start on this node (several when they
// are smaller than a node).
func (e *env) replicasHere() int {
	_, heads := resolve.ReplicaNodes(e.d)
	n := 0
	for _, h := range heads {
		if h == e.idx {
			n++
		}
	}
	return max(1, n)
}

// routerPortWhat names the P/D router's port in the check's messages.
const routerPortWhat = "the P/D router (disaggregation.router.port)"

func checkPortsFree(_ context.Context, e *env) Result {
	var ps []boundPort
	if !e.opts.RouterOnly { // a node in neither pool binds the router's port alone
		ps = e.portsFor()
	}
	if e.opts.RouterPort > 0 {
		// router.sh runs on disaggregation.router.node and binds its port
		// there, whether or not the node also serves an API.
		ps = append([]boundPort{{e.opts.RouterPort, routerPortWhat}}, ps...)
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
			routerOnly = routerOnly && p.What == routerPortWhat
		} else {
			free = append(free, fmt.Sprint(p.Port))
		}
	}
	expected := "free: " + strings.Join(want, ", ")
	if len(busy) > 0 {
		r := fail(strings.Join(busy, "; "), expected, "stop what listens there (`ss -ltnp 'sport = :PORT'`) or change the port in the spec")
		if routerOnly {
			r.Path = "disaggregation.router.port"
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

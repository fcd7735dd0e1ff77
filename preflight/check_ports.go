package preflight

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/vlaunch/vlaunch/resolve"
)

// boundPort is one port the bundle makes this node listen on.
type boundPort struct {
	Port int
	What string
}

// portsFor lists what this node binds. The primary (of each replica) runs
// the API server (--port) and, with engines on other nodes, the DP RPC
// endpoint (--data-parallel-rpc-port). Headless nodes dial out and bind no
// fixed port.
//
// Replicas smaller than a node share it (resolve.Place): the generator
// gives the one in slot k vllm.port + k and, with DP inside it,
// vllm.rpc_port + k, so each of them is checked here.
func (e *env) portsFor() []boundPort {
	if !e.isPrimary() {
		return nil
	}
	ps := []boundPort{{e.d.VLLM.Port, "API server (vllm.port)"}}
	if e.multiNode() {
		ps = append(ps, boundPort{e.d.VLLM.RPCPort, "DP RPC (vllm.rpc_port)"})
	}
	if e.replicasHere() > 1 && e.d.Parallelism.Data > 1 && !e.multiNode() {
		ps = append(ps, boundPort{e.d.VLLM.RPCPort, "DP RPC (vllm.rpc_port)"})
	}
	for k := 1; k < e.replicasHere(); k++ {
		ps = append(ps, boundPort{e.d.VLLM.Port + k, fmt.Sprintf("API server of the node's replica %d (vllm.port + %d)", k+1, k)})
		if e.d.Parallelism.Data > 1 {
			ps = append(ps, boundPort{e.d.VLLM.RPCPort + k, fmt.Sprintf("DP RPC of the node's replica %d (vllm.rpc_port + %d)", k+1, k)})
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

func checkPortsFree(_ context.Context, e *env) Result {
	ps := e.portsFor()
	if len(ps) == 0 {
		return skip(fmt.Sprintf("%s is headless: it binds no fixed port (it connects to the primary)", e.node.Name))
	}
	var want, busy, free []string
	for _, p := range ps {
		want = append(want, fmt.Sprintf("%d (%s)", p.Port, p.What))
		if err := e.host.Net.PortFree(p.Port); err != nil {
			busy = append(busy, fmt.Sprintf("%d %s", p.Port, portProblem(err)))
		} else {
			free = append(free, fmt.Sprint(p.Port))
		}
	}
	expected := "free: " + strings.Join(want, ", ")
	if len(busy) > 0 {
		return fail(strings.Join(busy, "; "), expected, "stop what listens there (`ss -ltnp 'sport = :PORT'`) or change the port in the spec")
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

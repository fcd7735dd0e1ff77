package preflight

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
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
func (e *env) portsFor() []boundPort {
	if !e.isPrimary() {
		return nil
	}
	ps := []boundPort{{e.d.VLLM.Port, "API server (vllm.port)"}}
	if e.multiNode() {
		ps = append(ps, boundPort{e.d.VLLM.RPCPort, "DP RPC (vllm.rpc_port)"})
	}
	return ps
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

package preflight

import (
	"context"
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/resolve"
)

// sideChannel is this node's NIXL side channel in its P/D pool (false: a
// colocated spec, or the pool's placement gave this node none).
func (e *env) sideChannel() (resolve.SideChannel, bool) {
	if e.opts.Role == nil {
		return resolve.SideChannel{}, false
	}
	for _, sc := range e.opts.Role.SideChannels {
		if sc.Node.Name == e.node.Name {
			return sc, true
		}
	}
	return resolve.SideChannel{}, false
}

// checkNixlPorts: every side-channel port this node's engines will listen
// on is free (the other pool's handshake comes there).
func checkNixlPorts(_ context.Context, e *env) Result {
	sc, ok := e.sideChannel()
	if !ok {
		return skip("not a node of a prefill/decode pool: no NIXL side channel")
	}
	var busy []string
	for _, p := range sc.Ports {
		if err := e.host.Net.PortFree(p); err != nil {
			busy = append(busy, fmt.Sprintf("%d %s", p, portProblem(err)))
		}
	}
	expected := fmt.Sprintf("free: %s (NIXL side channel of the %s pool, base %d)", portList(sc.Ports), e.opts.Role.Name, sc.BasePort)
	if len(busy) > 0 {
		return fail(strings.Join(busy, "; "), expected,
			"stop what listens there (`ss -ltnp 'sport = :PORT'`) or move the pool's VLLM_NIXL_SIDE_CHANNEL_PORT and generate again")
	}
	return pass("free: "+portList(sc.Ports), expected)
}

func portList(ps []int) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = fmt.Sprint(p)
	}
	return strings.Join(s, ", ")
}

// checkNixlPackage: the nixl Python package imports where vLLM runs (the
// NixlConnector imports it when the engine starts).
func checkNixlPackage(ctx context.Context, e *env) Result {
	if e.opts.Role == nil {
		return skip("not a node of a prefill/decode pool: no KV connector")
	}
	if !strings.Contains(e.opts.Role.KVTransferConfig, "NixlConnector") {
		return skip("the pool's KV connector is not NIXL")
	}
	if r, ok := e.containerSkip(); ok {
		return r
	}
	if _, err := e.run(ctx, e.python(), "-c", pyImport("nixl")); err != nil {
		return fail("nixl: "+err.Error(), "nixl imports", "pip install nixl in vLLM's environment (the official vLLM images ship it)")
	}
	return pass("nixl imports", "nixl imports")
}

package preflight

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// sideChannels are this node's NIXL side channels in its P/D pool: one,
// or one per instance when the pool's instances are smaller than a node
// (resolve.SideChannel.SubNode), each from its own base (nil: a colocated
// spec, or the pool's placement gave this node none).
func (e *env) sideChannels() []resolve.SideChannel {
	if e.opts.Role == nil {
		return nil
	}
	var out []resolve.SideChannel
	for _, sc := range e.opts.Role.SideChannels {
		if sc.Node.Name == e.node.Name {
			out = append(out, sc)
		}
	}
	return out
}

// checkNixlPorts: every side-channel port this node's engines of the pool
// will listen on is free (the other pool's handshake comes there).
func checkNixlPorts(_ context.Context, e *env) Result {
	scs := e.sideChannels()
	if len(scs) == 0 {
		return skip("not a node of a prefill/decode pool: no NIXL side channel")
	}
	if b, ok, _ := vllm.PDBundleOf(poolConnector(e.opts.Role), vllm.Version{}); ok && !b.NIXLSideChannel {
		return skip("the pool's KV connector is " + b.Connector + ": no NIXL side channel")
	}
	var ports, bases []int
	for _, sc := range scs {
		ports, bases = append(ports, sc.Ports...), append(bases, sc.BasePort)
	}
	var busy []string
	for _, p := range ports {
		if err := e.host.Net.PortFree(p); err != nil {
			busy = append(busy, fmt.Sprintf("%d %s", p, portProblem(err)))
		}
	}
	base := fmt.Sprintf("base %d", bases[0])
	if len(bases) > 1 {
		base = "bases " + portList(bases) + ", one per instance on the node"
	}
	expected := fmt.Sprintf("free: %s (NIXL side channel of the %s pool, %s)", portList(ports), e.opts.Role.Name, base)
	if sh := e.share(); sh.Shared {
		expected += fmt.Sprintf("; the node is shared with the %s pool, whose side channel listens on other ports", sh.With)
	}
	if len(busy) > 0 {
		return fail(strings.Join(busy, "; "), expected,
			"stop what listens there (`ss -ltnp 'sport = :PORT'`) or move the pool's VLLM_NIXL_SIDE_CHANNEL_PORT and generate again")
	}
	return pass("free: "+portList(ports), expected)
}

func portList(ps []int) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = fmt.Sprint(p)
	}
	return strings.Join(s, ", ")
}

// poolConnector is the kv_connector of the pool's --kv-transfer-config
// ("" when it is not JSON or names none).
func poolConnector(r *resolve.Role) string {
	var c struct {
		Connector string `json:"kv_connector"`
	}
	if r == nil || json.Unmarshal([]byte(r.KVTransferConfig), &c) != nil {
		return ""
	}
	return c.Connector
}

// checkNixlPackage: the Python module the pool's KV connector imports when
// the engine starts loads where vLLM runs: nixl for the NIXL family
// (NixlConnector, NixlPullConnector, NixlPushConnector), mooncake.engine for
// MooncakeConnector (vllm.PDBundle.Module, the table the generator writes
// from); other connectors are skipped.
func checkNixlPackage(ctx context.Context, e *env) Result {
	if e.opts.Role == nil {
		return skip("not a node of a prefill/decode pool: no KV connector")
	}
	name := poolConnector(e.opts.Role)
	b, ok, _ := vllm.PDBundleOf(name, vllm.Version{})
	if !ok || b.Module == "" {
		return skip("the pool's KV connector is " + name + ", whose package vlaunch does not check")
	}
	if r, ok := e.containerSkip(); ok {
		return r
	}
	if _, err := e.run(ctx, e.python(), "-c", pyImport(b.Module)); err != nil {
		hint := "pip install " + b.Package + " in vLLM's environment"
		if b.Module == "nixl" {
			hint += " (the official vLLM images ship it)"
		}
		return fail(b.Module+": "+err.Error(), b.Module+" imports", hint)
	}
	return pass(b.Module+" imports", b.Module+" imports")
}

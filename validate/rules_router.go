package validate

import (
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/spec"
)

// checkRouter: a top-level router (spec.Deployment.Router) stands in front
// of a colocated deployment's DP ranks or replicas, as vllm-router running
// a policy check simulates (estimate/sim/router.go). Everything else is
// refused at its field (SPEC137): a P/D spec's router is
// disaggregation.router, whose policy the P/D bundle does not write.
func checkRouter(c *checker) {
	if g := c.d.Disaggregation; g != nil && g.Router.Policy != "" {
		c.errorf(CodeRouter, p("disaggregation", "router", "policy"), "remove it: the P/D bundle's vllm-router runs its default policy",
			"disaggregation.router.policy is a colocated router's setting (top-level router.policy); the P/D router's policy is not written")
	}
	r := c.d.Router
	if r == nil {
		return
	}
	if c.d.Disaggregation != nil {
		hint := "move it to disaggregation.router"
		if r.Policy != "" {
			// disaggregation.router.policy is refused above: the whole
			// move leaves the policy behind.
			hint += " without `policy` (the P/D bundle's vllm-router runs its default policy)"
		}
		c.errorf(CodeRouter, p("router"), hint,
			"a top-level router is for a colocated deployment; a disaggregated one's router is disaggregation.router")
		return
	}
	if r.Kind != "" && r.Kind != spec.RouterKindVLLM {
		c.errorf(CodeRouter, p("router", "kind"), "use kind vllm-router",
			"router kind %q in front of a colocated deployment is not supported: vlaunch models vllm-router's policies only", r.Kind)
		return
	}
	if r.Policy != "" && !slices.Contains(spec.RouterPoliciesModeled, r.Policy) {
		hint := "one of " + strings.Join(spec.RouterPoliciesModeled, ", ")
		if slices.Contains(spec.RouterPolicies, r.Policy) {
			c.errorf(CodeRouter, p("router", "policy"), hint,
				"vllm-router's policy %q is not simulated: vlaunch has not read what it does", r.Policy)
		} else {
			c.errorf(CodeRouter, p("router", "policy"), hint, "unknown vllm-router policy %q", r.Policy)
		}
	}
	for _, k := range []struct {
		key string
		set bool
	}{{"sidecar_image", r.SidecarImage != ""}, {"decode_port", r.DecodePort != 0}} {
		if k.set {
			c.errorf(CodeRouter, p("router", k.key), "remove it", "router.%s is a P/D router's setting (disaggregation.router)", k.key)
		}
	}
	if par := c.d.Parallelism; !par.Auto && max(1, par.Data) <= 1 && par.ReplicaCount() <= 1 {
		c.errorf(CodeRouter, p("router"), "remove router, or run data parallel > 1 or several replicas",
			"a router needs several DP ranks or replicas to route between: this layout has one engine")
	}
	checkRouterNode(c, *r)
}

// checkRouterNode: the router's node is a hardware.nodes name, and its
// port is not vllm.port there (the first node's engine listens on it).
func checkRouterNode(c *checker, r spec.Router) {
	if r.Node == "" {
		return
	}
	i := slices.IndexFunc(c.d.Hardware.Nodes, func(n spec.Node) bool { return n.Name == r.Node })
	if i < 0 {
		c.errorf(CodeRouter, p("router", "node"), "name a node of hardware.nodes", "router.node %q is not a hardware.nodes name", r.Node)
		return
	}
	if port := c.d.VLLM.Port; r.Port != 0 && r.Port == port {
		c.errorf(CodeRouter, p("router", "port"), "pick another port (default 30000, vllm-router's)",
			"router.port %d is vllm.port, which the engines on %s listen on", r.Port, r.Node)
	}
}

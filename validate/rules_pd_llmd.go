package validate

import "github.com/vlaunch/vlaunch/spec"

// checkLLMDRouter: with llm-d's router no process of vlaunch's runs on a
// named node or port — Kubernetes places the endpoint picker and clients
// reach the Gateway's listener — so a router node or port the spec gives
// would be silently unused: a warning, at the field (SPEC126, SPEC129).
func checkLLMDRouter(c *checker) {
	r := c.d.Disaggregation.Router
	if !r.LLMD() {
		return
	}
	if r.Node != "" {
		c.warnf(CodePDNodes, p("disaggregation", "router", "node"), "remove router.node: Kubernetes schedules llm-d's endpoint picker",
			"router kind %s runs on no node of hardware.nodes: router.node %q is unused", spec.RouterKindLLMD, r.Node)
	}
	if r.Port != 0 {
		c.warnf(CodePDPorts, p("disaggregation", "router", "port"), "remove router.port: clients send requests to the Gateway the bundle's HTTPRoute attaches to",
			"router kind %s listens on no port of its own: router.port %d is unused", spec.RouterKindLLMD, r.Port)
	}
}

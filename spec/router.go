package spec

// A router in front of a colocated deployment (Deployment.Router): the
// vLLM project's router (github.com/vllm-project/router) spreading the
// requests over the DP ranks (or replicas) by its policy, so that a
// session's next turn can go back to the rank that caches its history
// (estimate/sim/router.go models the policies).

// The policies vllm-router's --policy accepts
// (vllm-project/router@03e9af5c src/main.rs CliArgs.policy value_parser,
// default cache_aware).
const (
	RouterPolicyCacheAware        = "cache_aware"
	RouterPolicyRoundRobin        = "round_robin"
	RouterPolicyRandom            = "random"
	RouterPolicyPowerOfTwo        = "power_of_two"
	RouterPolicyConsistentHash    = "consistent_hash"
	RouterPolicyStickyLeastLoaded = "sticky_least_loaded"
	RouterPolicyRendezvousHash    = "rendezvous_hash"
)

// RouterPolicies are vllm-router's policies, in its order.
var RouterPolicies = []string{RouterPolicyRandom, RouterPolicyRoundRobin, RouterPolicyCacheAware, RouterPolicyPowerOfTwo,
	RouterPolicyConsistentHash, RouterPolicyStickyLeastLoaded, RouterPolicyRendezvousHash}

// RouterPoliciesModeled are the policies check simulates (validate refuses
// the others: vlaunch has not read what they do).
var RouterPoliciesModeled = []string{RouterPolicyRandom, RouterPolicyRoundRobin, RouterPolicyCacheAware, RouterPolicyPowerOfTwo,
	RouterPolicyConsistentHash}

// DefaultRouterPolicy is vllm-router's default --policy.
const DefaultRouterPolicy = RouterPolicyCacheAware

// DefaultColocatedRouterPort is the colocated router's port when the spec
// gives none: vllm-router's own default --port (src/main.rs above), apart
// from vllm.port, which the engines keep.
const DefaultColocatedRouterPort = 30000

// applyRouterDefaults fills a colocated router's kind (vllm-router),
// policy (the router's default), node (the first node) and port. Resolve
// reads the document to tell a written policy from the default.
func applyRouterDefaults(d *Deployment) {
	r := d.Router
	if r == nil {
		return
	}
	setStr(&r.Kind, RouterKindVLLM)
	if r.Kind != RouterKindVLLM {
		return
	}
	setStr(&r.Policy, DefaultRouterPolicy)
	if r.Node == "" && len(d.Hardware.Nodes) > 0 {
		r.Node = d.Hardware.Nodes[0].Name
	}
	setInt(&r.Port, DefaultColocatedRouterPort)
}

// EngineView is the deployment its engines are laid out on: d itself,
// unless a colocated deployment's top-level router runs on a CPU-only
// node (gpus: 0, RouterOnlyNode), which holds no engine; then a copy
// whose hardware.nodes are GPUNodes, as the P/D pools leave their
// router's host out (resolve.Deployment.Colocated). The router's node
// stays found through RouterNode. A node's index in the copy is its
// place among the GPU nodes, not in the document.
func (d *Deployment) EngineView() *Deployment {
	if d.Disaggregation != nil || d.Router == nil || !d.anyGPULess() || d.routerHost != nil {
		return d
	}
	host, ok := d.RouterNode()
	if !ok || host.GPUs != 0 {
		return d
	}
	v := *d
	v.Hardware.Nodes = d.GPUNodes()
	v.routerHost = &host
	return &v
}

// RouterNode is the node of hardware.nodes the top-level router runs on
// (router.node), also in an EngineView that left it out.
func (d *Deployment) RouterNode() (Node, bool) {
	if d.Router == nil {
		return Node{}, false
	}
	if h := d.routerHost; h != nil && h.Name == d.Router.Node {
		return *h, true
	}
	for _, n := range d.Hardware.Nodes {
		if n.Name == d.Router.Node {
			return n, true
		}
	}
	return Node{}, false
}

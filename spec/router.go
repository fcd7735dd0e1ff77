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

package resolve

import "github.com/vlaunch/vlaunch/spec"

// colocatedRouter resolves a colocated spec's router (nil: none): its node
// by name and its policy with provenance — the spec's when router.policy
// is written, else vllm-router's default --policy (cache_aware,
// vllm-project/router@03e9af5c src/main.rs), which spec.ApplyDefaults
// filled in.
func colocatedRouter(d *spec.Deployment) *Router {
	r := d.Router
	if r == nil || d.Disaggregation != nil {
		return nil
	}
	out := &Router{Kind: r.Kind, Port: r.Port, Image: r.Image, Policy: set(r.Policy, SourceSpec, "")}
	if _, written := spec.NodeAt(d.Root, []string{"router", "policy"}, false); d.Root != nil && !written {
		pol := r.Policy
		if pol == "" {
			pol = spec.DefaultRouterPolicy
		}
		out.Policy = set(pol, SourceRelease, "vllm-router's default --policy")
	}
	out.Node, _ = d.RouterNode() // also a CPU-only host an EngineView left out
	return out
}

package validate

import (
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkRuntimeUnused warns about a runtime.image written in a bare-metal
// spec (SPEC138): the bare bundle starts the vllm installed on each host
// (generator's templates use the image only for docker and Kubernetes), so
// the image is never pulled and the user's pin silently does nothing. Only a
// written key counts: spec.ApplyDefaults derives an image from vllm.version
// for every spec.
func checkRuntimeUnused(c *checker) {
	if c.d.Runtime.Kind != "bare" {
		return
	}
	if _, written := spec.NodeAt(c.d.Root, p("runtime", "image"), false); !written {
		return
	}
	c.warnf(codes.SpecRuntimeUnused, p("runtime", "image"),
		"remove runtime.image, or set runtime.kind: docker (or kubernetes) to run that image; on bare metal install vLLM "+c.d.VLLM.Version+" on every host",
		"runtime.image %q has no effect with runtime.kind: bare: the bare-metal scripts start the vllm installed on each host, not a container", c.d.Runtime.Image)
}

// checkPrefixHitRate warns where workload.prefix_cache_hit_rate has no
// effect (SPEC140): with vLLM's prefix caching off nothing is cached, so
// check and plan rightly price every prompt token as computed, and a
// user who wrote a hit rate would otherwise read the verdicts as if it
// had been applied. With caching on, the predictions apply it: colocated
// engines (estimate/sim prefix.go, estimate/slo prefixhit.go) and a
// disaggregated deployment's prefill pool (estimate/pd's prefixRate).
func checkPrefixHitRate(c *checker) {
	r := c.d.Workload.PrefixCacheHitRate
	if r <= 0 {
		return
	}
	at := p("workload", "prefix_cache_hit_rate")
	if !prefixCachingOn(c) {
		c.warnf(codes.SpecPrefixHitUnmodelled, at,
			"remove --no-enable-prefix-caching from vllm.extra_args to serve cached prefixes (vLLM's V1 engine caches them by default), or remove the hit rate",
			"prefix_cache_hit_rate has no effect: prefix caching is off, so check and plan price every prompt token as computed (workload.prefix_cache_hit_rate %g)", r)
	}
}

// prefixCachingOn says the deployment's engines run vLLM's automatic
// prefix caching, by estimate/slo's rule (prefixCaching): on by default
// with the V1 engine (vllm.Release.EngineEra; an unknown release counts
// as the newest's), the last --enable-prefix-caching or
// --no-enable-prefix-caching of vllm.extra_args decides over the default.
func prefixCachingOn(c *checker) bool {
	rel := vllm.Newest()
	if c.relOK {
		rel = c.rel
	}
	return rel.PrefixCaching(c.d.VLLM.ExtraArgs)
}

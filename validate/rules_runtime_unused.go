package validate

import (
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/spec"
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

// checkPrefixHitRate warns that workload.prefix_cache_hit_rate is not
// modelled (SPEC140): the simulation prices every prompt token as computed
// and every prompt's KV as new, so a user who writes a hit rate would
// otherwise read TTFT and prefill-bound verdicts as if it had been applied.
// Saying so is the truthful answer until the step model prices cached
// prefixes (only the calibration replay of P/D benchmarks does today).
func checkPrefixHitRate(c *checker) {
	if c.d.Workload.PrefixCacheHitRate <= 0 {
		return
	}
	c.warnf(codes.SpecPrefixHitUnmodelled, p("workload", "prefix_cache_hit_rate"),
		"remove it to silence this; expect TTFT and prefill-bound throughput up to that share better than check predicts when the prefixes really are cached",
		"workload.prefix_cache_hit_rate %g is not modelled: check and plan price every prompt token as computed and its KV blocks as new", c.d.Workload.PrefixCacheHitRate)
}

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

package vllm

// srcImageKernels: the stored vllm-project/vllm docker/Dockerfile at commit
// 0000977e (the 0.9 era: mkdocs layout, torch 2.8 nightlies on arm64) builds
// the vllm-openai image without any EP kernels; PR #21976 ("add EP
// dependencies to docker", opened 2025-07-30 and still being tested against
// draft PR #23080 in mid-August 2025) installs pplx-kernels, DeepEP (and so
// NVSHMEM), NIXL and DeepGEMM into the image. 0.9.2's DeepEP manager asserts
// "DeepEP kernels not found" when the module is missing.
const srcImageKernels = "vllm-project/vllm docker/Dockerfile @0000977e (0.9 era: no EP kernels in any stage); " +
	"PR #21976 (opened 2025-07-30, tested with draft PR #23080 in Aug 2025, merge date not read): EP kernels in the image; " +
	srcA2A092 + " (assert \"DeepEP kernels not found\"); first image with them 0.10.2 per issue #11 and vllm-facts.md (secondary)"

// DeepEPMissingMessage is the start-up failure of a DeepEP backend in an
// image or environment without the deep_ep module.
const DeepEPMissingMessage = "DeepEP kernels not found. Please follow https://github.com/vllm-project/vllm/blob/main/tools/ep_kernels/README.md to install DeepEP kernels."

// imageEPKernels is the span of releases whose image has the EP kernels:
// from 0.10.2 (secondary sources; before it the 0.9-era Dockerfile has
// none and PR #21976 was still in review when 0.10.1 shipped).
var imageEPKernels = Span{Since: v0102}

// ImageKernels says which all-to-all kernel libraries the official
// vllm/vllm-openai image of a release ships. Verified is false: the
// Dockerfile at the 0.10.1 and 0.10.2 tags was not read (Source says what
// was).
type ImageKernels struct {
	// DeepEP covers the deepep_* backends; NVSHMEM comes with it and is
	// what DeepEP's internode kernels run on.
	DeepEP, NVSHMEM Presence
	// PPLX covers the pplx backend (itself removed upstream, PR #33724).
	PPLX     Presence
	Verified bool
	Source   string
}

// ImageKernels returns what the release's official image contains. A
// DeepEP backend in an image without DeepEP fails at start-up with
// DeepEPMissingMessage: use a newer image, a custom one with the EP
// kernels (tools/ep_kernels), or an NCCL-based backend.
func (r Release) ImageKernels() ImageKernels {
	p := imageEPKernels.In(r.Version)
	k := ImageKernels{DeepEP: p, NVSHMEM: p, PPLX: p, Source: srcImageKernels}
	if b, ok := KnownBackendEver(BackendPPLX); ok && b.FallsBack(r) {
		k.PPLX = Absent
	}
	return k
}

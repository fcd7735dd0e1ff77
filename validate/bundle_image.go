package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// officialImage is the repository of vLLM's release images.
const officialImage = "vllm/vllm-openai"

// imageRelease returns the release an official image reference names
// ("vllm/vllm-openai:v0.10.1", "docker.io/vllm/vllm-openai:v0.10.1@sha256:..."),
// or "" for another image or a tag that is not a release (latest, nightly,
// a bare digest: vlaunch cannot tell what those contain).
func imageRelease(image string) string {
	ref, _, _ := strings.Cut(image, "@")
	repo, tag, ok := strings.Cut(ref, ":")
	if !ok || strings.Contains(tag, "/") {
		return ""
	}
	repo = strings.TrimPrefix(strings.TrimPrefix(repo, "docker.io/"), "index.docker.io/")
	if repo != officialImage {
		return ""
	}
	if _, err := vllm.ParseVersion(tag); err != nil {
		return ""
	}
	return tag
}

// imageVendorCheck warns when a container bundle for AMD GPUs runs the
// official vllm/vllm-openai image, which is vLLM's CUDA build (the spec's
// default image is that one whatever the GPU): vLLM's ROCm installation
// docs name vllm/vllm-openai-rocm as its ROCm image instead. Which of its
// tags exist is not established here, so vlaunch names no tag.
func imageVendorCheck(r *resolve.Deployment, runtime string) diag.Diagnostics {
	d, image := r.Spec, r.Spec.Runtime.Image
	if r.GPU == nil || r.GPU.Vendor != "amd" || runtime == "bare" || imageRelease(image) == "" {
		return nil
	}
	return diag.Diagnostics{bundleDiag(d, codes.GenRuntime, diag.Warning, "runtime.image",
		fmt.Sprintf("%s is vLLM's CUDA image: on AMD GPUs it finds no GPU (the spec's image defaults to it whatever the GPU)", image),
		"set runtime.image to a ROCm build of vLLM "+r.Release.Version.String()+" (vLLM's ROCm docs name vllm/vllm-openai-rocm; AMD publishes rocm/vllm)")}
}

// imageKernelCheck: official images ship DeepEP (and NVSHMEM) only from
// vllm.Release.ImageKernels' first release; a DeepEP backend in an older
// official image fails at start-up with vllm.DeepEPMissingMessage. Bare
// metal needs DeepEP installed too: preflight's sw.backend_packages
// checks that on each host.
func imageKernelCheck(r *resolve.Deployment, runtime string) diag.Diagnostics {
	d, image, backend := r.Spec, r.Spec.Runtime.Image, r.Engine.All2All.Value
	if b, known := r.Release.All2AllBackend(backend); !known || !b.DeepEP || runtime == "bare" {
		return nil
	}
	tag := imageRelease(image)
	if tag == "" {
		return nil
	}
	rel, _, _ := vllm.ResolveString(tag) // imageRelease checked that tag parses
	k := rel.ImageKernels()
	if k.DeepEP == vllm.Present {
		return nil
	}
	remedy := fmt.Sprintf("use an image with the EP kernels (an official %s image from a release that ships them, or one built with vLLM's tools/ep_kernels), or set vllm.all2all_backend to %s",
		officialImage, ncclBackend(r.Release))
	if k.DeepEP == vllm.Maybe {
		return diag.Diagnostics{bundleDiag(d, codes.GenRuntime, diag.Warning, "runtime.image",
			fmt.Sprintf("vlaunch cannot tell whether %s contains DeepEP, which the %s backend needs (%s)", image, backend, k.Source), remedy)}
	}
	return diag.Diagnostics{bundleDiag(d, codes.GenRuntime, diag.Error, "runtime.image",
		fmt.Sprintf("%s does not contain DeepEP, so the %s backend fails at start-up (%q)", image, backend, vllm.DeepEPMissingMessage), remedy)}
}

// ncclBackend is the release's NCCL-based backend (no extra kernels).
func ncclBackend(r vllm.Release) string {
	if _, ok := r.All2AllBackend(vllm.BackendAllgatherReducescatter); ok {
		return vllm.BackendAllgatherReducescatter
	}
	return vllm.BackendNaive
}

// movingTags are tags that name no release: what they run changes as the
// publisher pushes (an absent tag is docker's "latest").
var movingTags = []string{"", "latest", "nightly", "main", "stable", "dev", "edge"}

// imagePinCheck warns when a container bundle's runtime.image does not
// run the release vlaunch checked the spec against (newuser40 finding 8:
// rocm/vllm:latest with vllm.version 0.22.1): an official image whose tag
// is another release, or any image on a moving tag (latest, nightly, …).
// Flags, defaults and refusals are the release's, so the bundle is only as
// right as the image is that release. A digest pins a build the user
// chose; vlaunch cannot read its version, so it says nothing of it. The
// spec's default image (runtime.image unset) is derived from vllm.version.
func imagePinCheck(r *resolve.Deployment, runtime string) diag.Diagnostics {
	d, image := r.Spec, r.Spec.Runtime.Image
	// An unset vllm.version is SPEC117's to report (the newest release is
	// assumed, which the image need not run).
	if runtime == "bare" || image == "" || strings.Contains(image, "@") || d.VLLM.Version == "" {
		return nil
	}
	want := d.VLLM.Version
	if tag := imageRelease(image); tag != "" {
		rel, _, _ := vllm.ResolveString(tag)
		if rel.Version == r.Release.Version {
			return nil
		}
		return diag.Diagnostics{bundleDiag(d, codes.GenRuntime, diag.Warning, "runtime.image",
			fmt.Sprintf("%s runs vLLM %s, but vlaunch checked the spec against vllm.version %s (flags, defaults and refusals differ between releases)", image, rel.Version, want),
			fmt.Sprintf("set runtime.image to %s:v%s, or vllm.version to %s", officialImage, want, rel.Version))}
	}
	if ds := otherImagePin(r, image); ds != nil {
		return ds
	}
	if !slices.Contains(movingTags, imageTag(image)) {
		return nil
	}
	return diag.Diagnostics{bundleDiag(d, codes.GenRuntime, diag.Warning, "runtime.image",
		fmt.Sprintf("%s does not pin a release: vlaunch checked the spec against vLLM %s, and the tag runs whatever was pushed last", image, want),
		fmt.Sprintf("use a tag (or a digest) of the image's build of vLLM %s, and keep vllm.version what `vllm --version` prints in it", want))}
}

// imageTag is the tag of an image reference ("" when it has none).
func imageTag(image string) string {
	ref, _, _ := strings.Cut(image, "@")
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		return ref[i+1:]
	}
	return ""
}

// rocmRepos are the repositories of vLLM's ROCm builds: AMD's (tags like
// "rocm7.0.0_vllm_0.11.2_20251210",
// "rocm7.12.0_gfx1151_ubuntu24.04_py3.12_pytorch_2.9.1_vllm_0.16.0") and
// vLLM's own ("vllm/vllm-openai-rocm:v0.23.0").
var rocmRepos = []string{"rocm/vllm", "rocm/vllm-dev", "vllm/vllm-openai-rocm"}

// otherImagePin is imagePinCheck for an image other than the official one
// whose name says which release it runs, read the way lint reads it
// (launch.ImageVersion; qa44b F8: rocm/vllm:rocm7.0.0_vllm_0.11.2_20251210
// with vllm.version 0.22.1 got no warning): a warning when that is another
// release. A ROCm build whose fixed tag names no release gets an info note
// (vlaunch cannot tell; unknown stays unknown). nil when there is nothing
// to say (a moving tag names no release and is imagePinCheck's).
func otherImagePin(r *resolve.Deployment, image string) diag.Diagnostics {
	d, want := r.Spec, r.Spec.VLLM.Version
	tag := launch.ImageVersion(image)
	if tag == "" {
		if !slices.Contains(rocmRepos, imageRepo(image)) || slices.Contains(movingTags, imageTag(image)) {
			return nil
		}
		return diag.Diagnostics{bundleDiag(d, codes.GenRuntime, diag.Info, "runtime.image",
			fmt.Sprintf("vlaunch cannot tell which vLLM release %s runs (its tag names none); it checked the spec against vllm.version %s", image, want),
			"keep vllm.version what `vllm --version` prints in the image")}
	}
	rel, _, _ := vllm.ResolveString(tag)
	if rel.Version == r.Release.Version {
		return nil
	}
	return diag.Diagnostics{bundleDiag(d, codes.GenRuntime, diag.Warning, "runtime.image",
		fmt.Sprintf("%s names vLLM %s in its tag, but vlaunch checked the spec against vllm.version %s (flags, defaults and refusals differ between releases)", image, tag, want),
		otherImageHint(image, want, tag))}
}

// otherImageHint: use an image of the release checked, or check the
// image's release; for a ROCm build, how its tags name the release.
func otherImageHint(image, want, tag string) string {
	build := "an image of vLLM " + want
	if slices.Contains(rocmRepos, imageRepo(image)) {
		build = "a ROCm build of vLLM " + want + " (rocm/vllm tags name the release as vllm_" + want + "; vllm/vllm-openai-rocm tags as v" + want + ")"
	}
	return "use " + build + ", or set vllm.version to " + tag
}

// imageRepo is an image reference's repository without a Docker Hub
// registry prefix or tag ("rocm/vllm").
func imageRepo(image string) string {
	ref, _, _ := strings.Cut(image, "@")
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	return strings.TrimPrefix(strings.TrimPrefix(ref, "docker.io/"), "index.docker.io/")
}

package spec

// llm-d's router for a disaggregated deployment on Kubernetes (issue #24):
// llm-d's endpoint picker (the inference scheduler, EPP) behind a Gateway
// API Inference Extension InferencePool, and llm-d's routing sidecar on the
// decode pods. The release vlaunch writes for is pinned here; the bundle's
// flags and scheduler configuration are the ones that release's source
// accepts (generator/pd_llmd.go cites them).
//
// The inference scheduler (github.com/llm-d/llm-d-inference-scheduler, which
// took in the routing sidecar from github.com/llm-d/llm-d-routing-sidecar,
// deprecated at 78051b86:README.md) was renamed llm-d/llm-d-router; its
// release v0.10.0 is commit 71f4f0999f95b96c49a9d0c4afbd18dfdb943c26
// (2026-08-17). Its Makefile names the images (EPP_IMAGE_NAME
// llm-d-router-endpoint-picker, SIDECAR_IMAGE_NAME
// llm-d-router-disagg-sidecar, IMAGE_REGISTRY ghcr.io/llm-d) and
// .github/workflows/ci-release.yaml builds them on a v* tag with the tag's
// name.

// RouterKindLLMD is llm-d's router: endpoint picker, InferencePool and the
// decode pods' routing sidecar (Kubernetes only).
const RouterKindLLMD = "llm-d"

// RouterKinds are the router kinds a spec may name.
var RouterKinds = []string{RouterKindVLLM, RouterKindLLMD}

// LLMDRouterRelease is the llm-d router release vlaunch writes for.
const LLMDRouterRelease = "v0.10.0"

// DefaultLLMDEPPImage is the endpoint picker image of LLMDRouterRelease.
const DefaultLLMDEPPImage = "ghcr.io/llm-d/llm-d-router-endpoint-picker:" + LLMDRouterRelease

// DefaultLLMDSidecarImage is the routing sidecar image of LLMDRouterRelease.
const DefaultLLMDSidecarImage = "ghcr.io/llm-d/llm-d-router-disagg-sidecar:" + LLMDRouterRelease

// DefaultLLMDDecodePort is the decode engines' port behind the sidecar: the
// sidecar's own default for it (defaultVLLMPort "8200",
// llm-d-router@71f4f099:pkg/sidecar/proxy/options.go) and the port llm-d's
// guides give decode vLLM (llm-d@f679742f:guides/pd-disaggregation/
// modelserver/gpu/vllm/base/patch-decode.yaml, "--port=8200").
const DefaultLLMDDecodePort = 8200

// applyLLMDDefaults pins the images and the decode port. Node and Port
// stay unset: no llm-d process runs on a named node or port of its own.
func applyLLMDDefaults(r *Router) {
	setStr(&r.Image, DefaultLLMDEPPImage)
	setStr(&r.SidecarImage, DefaultLLMDSidecarImage)
	setInt(&r.DecodePort, DefaultLLMDDecodePort)
}

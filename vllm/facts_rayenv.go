package vllm

import "strings"

// srcRayEnv: how the Ray executor (and, from PR #20344, the Ray DP backend)
// forwards the driver's environment to Ray actors on other nodes.
const srcRayEnv = "PR #13945 (Feb 2025 diff: a fixed carry-over list VLLM_ATTENTION_BACKEND, TPU_CHIPS_PER_HOST_BOUNDS, TPU_HOST_BOUNDS, VLLM_USE_V1, VLLM_TRACE_FUNCTION, plus VLLM_TORCH_PROFILER_DIR, VLLM_TEST_ENABLE_EP); " +
	"PR #14099 (opened 2025-03-02: every variable registered in vllm.envs except VLLM_HOST_IP, VLLM_HOST_PORT, LOCAL_RANK, CUDA_VISIBLE_DEVICES and ~/.config/vllm/ray_non_carry_over_env_vars.json); " +
	"issue #15769 (0.8.2 log \"Copying the following environment variables to workers\"); PR #20344 (same list to Ray DP engine actors); PR #21406 (2025-07-22: HF_TOKEN); " +
	"PR #34383 (opened 2026-02-11, merged 2026-02-17: prefixes VLLM_, LMCACHE_, NCCL_, UCX_, HF_, HUGGING_FACE_ and PYTHONHASHSEED, extendable with VLLM_RAY_EXTRA_ENV_VAR_PREFIXES_TO_COPY / VLLM_RAY_EXTRA_ENV_VARS_TO_COPY); " +
	"release boundaries unverified (0.8.0, 0.10.1 and 0.17.0 recorded as the earliest possible); the prefix copy is absent at " + srcFA016 + " and present at " + srcFA019

// Eras of the Ray environment copy, earliest possible release of each.
var (
	rayCopyRegisteredSince = v080  // PR #14099
	rayCopyHFTokenSince    = v0101 // PR #21406
	rayCopyPrefixSince     = v0170 // PR #34383 (merged 2026-02-17): not in 0.16.0, in 0.19.0
)

// rayFixedCarryOver is the list the Ray executor copied before PR #14099
// (as of Feb 2025; older releases' lists are unverified).
var rayFixedCarryOver = []string{"VLLM_ATTENTION_BACKEND", "TPU_CHIPS_PER_HOST_BOUNDS", "TPU_HOST_BOUNDS", "VLLM_USE_V1", "VLLM_TRACE_FUNCTION"}

// rayNeverCopied are per-worker variables the copy always excludes.
var rayNeverCopied = []string{"VLLM_HOST_IP", "VLLM_HOST_PORT", "LOCAL_RANK", "CUDA_VISIBLE_DEVICES"}

// rayCopyPrefixes are the prefixes PR #34383 copies by default.
var rayCopyPrefixes = []string{"VLLM_", "LMCACHE_", "NCCL_", "UCX_", "HF_", "HUGGING_FACE_"}

// RayEnvCopy says which of the driver's environment variables a release
// forwards to Ray workers on other nodes. Anything else set only where
// `vllm serve` runs (GLOO_SOCKET_IFNAME in every release; NCCL_* before
// the prefix copy) does not reach them: set it on every node before
// `ray start`, or in the Ray runtime environment.
type RayEnvCopy struct {
	// Registered: every variable vLLM's envs.py registers is copied.
	Registered bool
	// Names are copied individually (the fixed list of the early releases,
	// or the extra names later ones add).
	Names []string
	// Prefixes: every driver variable with one of them is copied.
	Prefixes []string
	// Excluded are never copied (per-worker values).
	Excluded []string
	Source   string
}

// RayEnvCopy returns the release's rule.
func (r Release) RayEnvCopy() RayEnvCopy {
	c := RayEnvCopy{Excluded: rayNeverCopied, Source: srcRayEnv}
	v := r.Version
	if v.Less(rayCopyRegisteredSince) {
		c.Names = rayFixedCarryOver
		return c
	}
	c.Registered = true
	if v.AtLeast(rayCopyHFTokenSince) {
		c.Names = []string{"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"}
	}
	if v.AtLeast(rayCopyPrefixSince) {
		c.Prefixes = rayCopyPrefixes
		c.Names = append(c.Names, "PYTHONHASHSEED")
	}
	return c
}

// Copies reports whether the rule forwards the variable. A variable vLLM
// registers counts as registered when the release's env table knows it.
func (c RayEnvCopy) Copies(r Release, name string) bool {
	for _, x := range c.Excluded {
		if x == name {
			return false
		}
	}
	for _, x := range c.Names {
		if x == name {
			return true
		}
	}
	for _, p := range c.Prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	if !c.Registered {
		return false
	}
	e, ok := r.Env(name)
	return ok && e.Owner == "vllm"
}

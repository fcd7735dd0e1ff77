package vllm

// A checkpoint's own KV-cache quantization and --kv-cache-dtype auto.
//
// PR #29980 ("[Fix] Load kv-cache dtype from hf_quant_config.json
// automatically", merged December 2025) made vLLM read a ModelOpt
// checkpoint's kv_cache_quant_algo: FP8 there gives an FP8 KV cache
// (fp8_e4m3) without --kv-cache-dtype, where before vLLM kept the model's
// dtype unless told fp8 (the PR's description). Its helpers
// (get_kv_cache_quant_algo_string, resolve_kv_cache_dtype_string and
// MODELOPT_TO_VLLM_KV_CACHE_DTYPE_MAP = {'fp8': 'fp8_e4m3'} in
// vllm/utils/torch_utils.py) are absent from the 0.12.0 API reference and
// present in 0.14.0's; 0.13.0 was not read. Issue #34752 (February 2026,
// open) reports that leaving the flag unset uses the checkpoint's FP8 but
// passing --kv-cache-dtype auto explicitly fell back to the model dtype in
// the build it was filed against (which release is not pinned; three fixes,
// PRs #34953, #35044, #37034, were closed unmerged).
const srcCheckpointKV = "PR #29980 (merged 2025-12: kv_cache_quant_algo FP8 in hf_quant_config.json gives an FP8 KV cache without --kv-cache-dtype); " +
	"docs.vllm.ai/en/v0.12.0/api/vllm/utils/torch_utils (no MODELOPT_TO_VLLM_KV_CACHE_DTYPE_MAP) and docs.vllm.ai/en/v0.14.0/api/vllm/utils/torch_utils ({'fp8': 'fp8_e4m3'}); " +
	"0.13.0 not read; issue #34752 (2026-02, open: an explicit --kv-cache-dtype auto fell back to the model dtype, the flag left unset used FP8; release unverified)"

// checkpointKVDefault: releases that turn a ModelOpt checkpoint's
// kv_cache_quant_algo FP8 into an FP8 KV cache when --kv-cache-dtype is not
// given.
var checkpointKVDefault = Span{Since: v0130, Confirmed: v0140}

// CheckpointKVCache is what a release does with a checkpoint that states its
// KV-cache quantization (ModelOpt's kv_cache_quant_algo).
type CheckpointKVCache struct {
	// FP8WhenUnset is Present where the release caches in FP8 when
	// --kv-cache-dtype is not given (0.14.0 on), Maybe where no source pins
	// it (0.13.x), Absent where it keeps the model's dtype (0.12.x and
	// earlier).
	FP8WhenUnset Presence
	// ExplicitAuto is what an explicit --kv-cache-dtype auto may do instead:
	// issue #34752 saw it keep the model's dtype.
	ExplicitAuto string
	Source       string
}

// CheckpointKVCache returns the release's handling of a checkpoint's
// kv_cache_quant_algo.
func (r Release) CheckpointKVCache() CheckpointKVCache {
	return CheckpointKVCache{FP8WhenUnset: checkpointKVDefault.In(r.Version),
		ExplicitAuto: "an explicit --kv-cache-dtype auto was seen to keep the model's dtype (issue #34752)", Source: srcCheckpointKV}
}

package vllm

// MLAFlashInferSparse is FlashInfer's sparse (DSA) MLA backend, added by
// PR #33451 (merged 2026-02-12).
const MLAFlashInferSparse = "FLASHINFER_MLA_SPARSE"

// srcSparseMLAPriority: which sparse MLA backend Blackwell tries first.
// At the v0.19.0 commit 2a69949bd, vllm/platforms/cuda.py
// _get_backend_priorities (use_mla, compute capability 10) puts
// FLASHINFER_MLA_SPARSE before FLASHMLA_SPARSE when the KV cache dtype
// starts with "fp8" ("Prefer FlashInfer for fp8 kv cache") or, for a BF16
// cache, when the attention heads per rank are at most 16 ("FlashMLA uses
// padding"; issue #35807's benchmarks); FLASHMLA_SPARSE first otherwise.
// flashinfer_mla_sparse.py there runs on compute capability 10 only, with
// kernel block sizes 32 and 64. The v0.16.0 release branch has no
// FLASHINFER_MLA_SPARSE (its priority list ends in FLASHMLA_SPARSE alone):
// PR #33451 merged after the branch. 0.17.x-0.18.x were not read.
const srcSparseMLAPriority = "vllm/platforms/cuda.py _get_backend_priorities and vllm/v1/attention/backends/mla/flashinfer_mla_sparse.py at " + srcFA019 +
	"; absent at " + srcFA016 + "; PR #33451 (merged 2026-02-12); 0.17.x-0.18.x unverified"

// UseFlashInferSparseMLA makes Release.MLABackend answer
// FLASHINFER_MLA_SPARSE where SparseMLAPrefersFlashInfer is Present for an
// FP8 KV cache (the case MLABackend can tell: it has no head count). Off:
// the estimator has no FlashInfer sparse MLA kernel model (perf, padding,
// DCP support), and priority is not selection — a backend that fails
// validation for the configuration is skipped.
var UseFlashInferSparseMLA = false

// SparseMLAPrefersFlashInfer says whether the release puts
// FLASHINFER_MLA_SPARSE first among the sparse MLA backends for a GPU of
// compute capability major smMajor, a KV cache in FP8 or not, and
// headsPerRank attention heads per tensor-parallel rank (0: unknown).
func (r Release) SparseMLAPrefersFlashInfer(smMajor int, fp8KV bool, headsPerRank int) (Presence, string) {
	if smMajor != 10 {
		return Absent, srcSparseMLAPriority
	}
	var in Presence
	switch {
	case r.Version.Less(v0170):
		return Absent, srcSparseMLAPriority
	case r.Version.Less(v0190):
		in = Maybe
	default:
		in = Present
	}
	switch {
	case fp8KV:
		return in, srcSparseMLAPriority
	case headsPerRank > 0 && headsPerRank <= 16:
		return in, srcSparseMLAPriority
	case headsPerRank == 0:
		return min(in, Maybe), srcSparseMLAPriority
	}
	return Absent, srcSparseMLAPriority
}

// MLAFlashAttnSparse is FlashAttention's sparse (DSA) MLA backend for
// Hopper.
const MLAFlashAttnSparse = "FLASH_ATTN_MLA_SPARSE"

// srcSparseMLAHopper: at the v0.28.0 tag (vllm/platforms/cuda.py of the
// third-party checkout bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a, base
// 2cf0a6915ce5) _get_backend_priorities for MLA on compute capability other
// than 10 and 12 ends in FLASH_ATTN_MLA_SPARSE, FLASHMLA_SPARSE: a sparse
// model on Hopper tries FlashAttention's sparse MLA first. The v0.19.0
// commit's list has FLASHMLA_SPARSE alone, as has main through 2026-05-19
// (local-inference-lab/vllm snapshot: no FLASH_ATTN_MLA_SPARSE in cuda.py's
// history). Whether it takes an FP8 KV cache was not read (third-party
// notes call it BF16-only, leaving FLASHMLA_SPARSE for FP8).
const srcSparseMLAHopper = "vllm/platforms/cuda.py _get_backend_priorities at the v0.28.0 tag 2cf0a6915ce5 (checkout bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a); " +
	"FLASHMLA_SPARSE alone at " + srcFA019 + " and on main to 2026-05-19; first release (0.20-0.28) unverified; FP8 KV support of FLASH_ATTN_MLA_SPARSE not read (unverified)"

// UseFlashAttnSparseMLA makes Release.MLABackend answer FLASH_ATTN_MLA_SPARSE
// for a sparse MLA model with a BF16 KV cache on Hopper where
// SparseMLAHopperPrefersFlashAttn is Present. Off: no kernel model for it.
var UseFlashAttnSparseMLA = false

// SparseMLAHopperPrefersFlashAttn says whether the release tries
// FLASH_ATTN_MLA_SPARSE before FLASHMLA_SPARSE on Hopper (SM 9) for a BF16
// (fp8KV false) or FP8 KV cache.
func (r Release) SparseMLAHopperPrefersFlashAttn(smMajor int, fp8KV bool) (Presence, string) {
	var in Presence
	switch {
	case smMajor != 9 || r.Version.Less(v0200):
		return Absent, srcSparseMLAHopper
	case r.Version.Less(v0280):
		in = Maybe
	default:
		in = Present
	}
	if fp8KV {
		return min(in, Maybe), srcSparseMLAHopper
	}
	return in, srcSparseMLAHopper
}

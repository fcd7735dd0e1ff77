package vllm

import "fmt"

// srcMLABlock: CudaPlatform.check_and_update_config (vllm/platforms/cuda.py,
// several stored versions) forces the KV block size for MLA models.
const srcMLABlock = "stored vllm/platforms/cuda.py (several versions): \"Forcing kv cache block size to 64 for FlashMLA backend\" (older: != 64, newer: any multiple of 64), " +
	"128 for CUTLASS_MLA (older: Blackwell default), 32 or a multiple of 64 for FlashInferMLA, 64 for FlashMLASparse; other MLA backends keep --block-size (default 16); " +
	"DeepSeek-V4 (not an MLA model to vlaunch: no kv_lora_rank) takes 256, Release.ArchitectureBlockSize; " +
	"release boundaries read at the tags v0.8.0-v0.24.0 (kzwrime/vllm snapshot): != 64 / != 128 / not in [32, 64] up to v0.11.0, multiples from v0.11.1, the override gone from v0.18.0 " +
	"(Release.MLAUnsetBlockSize: FLASHINFER_MLA then runs its smallest kernel block, 32; Release.MLAUserBlockSize for a given --block-size)"

// srcMLAFP8: FP8 KV cache with MLA.
const srcMLAFP8 = "issue #18888 (vLLM 0.8.5, H800: \"FlashMLA V1 with FP8 KV cache not yet supported!\"); PR #14221 (Mar 2025: V1 backends reject unsupported quantized KV caches); " +
	"PR #35695 (closed May 2026: Triton MLA FP8 KV implemented upstream by another change); PR #46695 (withdrawn Jun 2026: FLASH_ATTN_MLA has no FP8 KV); " +
	"PR #47090 (Jun 2026: FlashMLA FP8 KV for the GLM5/DSv3.2 model path); releases after 0.8.5 unverified"

// MLA attention backends as vLLM names them.
const (
	MLAFlashMLA       = "FLASHMLA"
	MLACutlass        = "CUTLASS_MLA"
	MLAFlashInfer     = "FLASHINFER_MLA"
	MLAFlashMLASparse = "FLASHMLA_SPARSE"
	MLATriton         = "TRITON_MLA"
	MLAFlashAttn      = "FLASH_ATTN_MLA"
)

// AttentionBackendEnv is the variable that forced an attention backend in
// the releases that read it: up to 0.15.x, not from 0.16.0 (envTable,
// srcAttnEnvGone); ReadsAttentionBackendEnv says which.
const AttentionBackendEnv = "VLLM_ATTENTION_BACKEND"

// ReadsAttentionBackendEnv reports whether the release may read
// AttentionBackendEnv (the lenient test: 0.15.x is unverified and counts as
// reading it); from 0.16.0 vLLM ignores the variable and only warns
// "Unknown vLLM environment variable".
func (r Release) ReadsAttentionBackendEnv() bool {
	_, ok := r.Env(AttentionBackendEnv)
	return ok
}

// MLABlockSize is the KV block size vLLM forces for an MLA model on the
// backend; ok is false when the backend keeps --block-size (default 16).
// FlashInferMLA accepts 32 as well as multiples of 64; 64 is what it forces.
func MLABlockSize(backend string) (size int, ok bool) {
	switch backend {
	case MLAFlashMLA, MLAFlashInfer, MLAFlashMLASparse:
		return 64, true
	case MLACutlass:
		return 128, true
	}
	return 0, false
}

// srcMLADefault: which MLA backend vLLM picks when none is forced.
const srcMLADefault = "PR #14451 (merged 2025-03-07, in 0.8.0: FlashMLA the default MLA backend on Hopper; V0 before it used Triton MLA); " +
	"PR #27363 (merged 2025-10-22, in 0.11.1: FLASH_ATTN_MLA preferred over FlashMLA on Hopper; cuda.py _get_backend_priorities lists FLASH_ATTN_MLA, FLASHMLA, FLASHINFER_MLA, TRITON_MLA for non-Blackwell GPUs); " +
	"PR #46695 (FLASH_ATTN_MLA has no FP8 KV cache, so an FP8 cache falls to FlashMLA); " +
	"Blackwell: CUTLASS_MLA first in the 0.11 priority table, PR #32339 (merged 2026-01-14) makes FLASHINFER_MLA the default (0.14.0 taken as its first release, unverified); " +
	"DeepSeek-V3.2 (index_topk) runs FLASHMLA_SPARSE on Hopper and Blackwell only (vLLM model tests skip it below compute capability 9); " +
	"checked against the vLLM 0.19.0 start-up log of DeepSeek-V2-Lite on an H100 (block size 16, calibration case dsv2lite-llmd-h100-tp1)"

// MLABackend is the MLA attention backend the release picks when none is
// forced, for a GPU of compute capability major smMajor (0 = not NVIDIA or
// unknown), with or without an FP8 KV cache, for a dense or a sparse (DSA)
// MLA model. A release older than the table is judged by the version asked
// for (V0 before 0.8 used Triton MLA).
func (r Release) MLABackend(smMajor int, fp8KV, sparse bool) (backend, source string) {
	v := r.Version
	if r.Match == MatchOlder && !r.Requested.IsZero() {
		v = r.Requested
	}
	switch {
	case sparse && smMajor == 10 && fp8KV && UseFlashInferSparseMLA:
		if p, src := r.SparseMLAPrefersFlashInfer(smMajor, true, 0); p == Present {
			return MLAFlashInferSparse, src
		}
		return MLAFlashMLASparse, srcMLADefault
	case sparse && smMajor == 9 && !fp8KV && UseFlashAttnSparseMLA:
		if p, src := r.SparseMLAHopperPrefersFlashAttn(smMajor, false); p == Present {
			return MLAFlashAttnSparse, src
		}
		return MLAFlashMLASparse, srcMLADefault
	case sparse && (smMajor == 9 || smMajor == 10):
		return MLAFlashMLASparse, srcMLADefault
	case smMajor == 10 && v.AtLeast(v0140):
		return MLAFlashInfer, srcMLADefault
	case smMajor == 10:
		return MLACutlass, srcMLADefault
	case smMajor == 9 && v.AtLeast(v0111) && !fp8KV:
		return MLAFlashAttn, srcMLADefault
	case smMajor == 9 && v.AtLeast(v080):
		return MLAFlashMLA, srcMLADefault
	}
	return MLATriton, srcMLADefault
}

// MLABlockSource cites MLABlockSize and DefaultMLABackend.
func MLABlockSource() string { return srcMLABlock }

// MLAFP8KV reports whether --kv-cache-dtype fp8 works for an MLA model on
// the backend in this release: FlashMLA refuses it in V1 up to 0.8.5;
// later releases and other backends were not read.
func (r Release) MLAFP8KV(backend string) (Presence, string) {
	if backend == MLAFlashMLA && r.Version.AtLeast(v080) && !r.Version.AtLeast(v090) {
		return Absent, srcMLAFP8
	}
	if backend == MLAFlashAttn {
		return Absent, srcMLAFP8
	}
	return Maybe, srcMLAFP8
}

// srcSparseMLA: DeepSeek-V3.2 (DSA) support.
const srcSparseMLA = "DeepseekV32ForCausalLM listed from 0.11.0 in a third-party table of vLLM's supported architectures by release (not re-read in vLLM's registry); " +
	"vLLM's model tests skip DeepseekV32ForCausalLM below compute capability 9: FLASHMLA_SPARSE needs Hopper or Blackwell"

// sparseMLASince is the first release that serves DeepSeek sparse attention.
var sparseMLASince = v0110

// SparseMLA reports whether the release serves DeepSeek sparse attention
// (DeepSeek-V3.2's indexer) on a GPU of compute capability major smMajor
// (0 = unknown): from 0.11.0, on Hopper or Blackwell (FLASHMLA_SPARSE).
// The reason is empty when it does.
func (r Release) SparseMLA(smMajor int) (ok bool, why, source string) {
	switch {
	case !r.Version.AtLeast(sparseMLASince):
		return false, fmt.Sprintf("vLLM %s predates DeepSeek-V3.2 support (0.11.0)", r.Version), srcSparseMLA
	case smMajor != 0 && smMajor != 9 && smMajor != 10:
		return false, fmt.Sprintf("DeepSeek sparse attention runs on FLASHMLA_SPARSE, which needs a Hopper or Blackwell GPU (compute capability %d.x here)", smMajor), srcSparseMLA
	}
	return true, "", srcSparseMLA
}

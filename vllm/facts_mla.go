package vllm

// srcMLABlock: CudaPlatform.check_and_update_config (vllm/platforms/cuda.py,
// several stored versions) forces the KV block size for MLA models.
const srcMLABlock = "stored vllm/platforms/cuda.py (several versions): \"Forcing kv cache block size to 64 for FlashMLA backend\" (older: != 64, newer: any multiple of 64), " +
	"128 for CUTLASS_MLA (older: Blackwell default), 32 or a multiple of 64 for FlashInferMLA, 64 for FlashMLASparse; other MLA backends keep --block-size (default 16); " +
	"256 for the DeepSeek-V4 FlashMLA path per vllm-facts.md; release boundaries unverified"

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

// DefaultMLABackend is the MLA backend vLLM picks on a GPU of the given
// compute capability major version when none is forced: FlashMLA on Hopper
// (9) and Blackwell (10), where its dense kernels run (older releases chose
// CUTLASS_MLA on Blackwell), Triton MLA elsewhere (A100, L40, ...).
func DefaultMLABackend(smMajor int) string {
	if smMajor == 9 || smMajor == 10 {
		return MLAFlashMLA
	}
	return MLATriton
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

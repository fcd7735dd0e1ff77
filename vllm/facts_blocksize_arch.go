package vllm

import "fmt"

// KV block sizes an architecture's own attention backends dictate, and
// whether vLLM chooses a fitting one itself.
//
// MiniMax-M3 (model_type minimax_m3): the sparse layers' backends,
// MiniMaxM3SparseBackend and MiniMaxM3IndexerBackend, take only 128-token
// kernel blocks. How vLLM gets from --block-size to a kernel block:
//
//   - Each KV cache group's kernel block is chosen by
//     select_common_block_size (vllm/v1/worker/utils.py): --block-size
//     itself when every backend of the group takes it; otherwise the
//     largest int-listed size that divides it and that every backend takes
//     (a manager block split into kernel blocks); otherwise it raises
//     ValueError("No common block size for N"). With [128] that is: any
//     multiple of 128 runs on 128-token kernel blocks, anything else is
//     refused. The dense layers' backend (FlashAttention/FlashInfer,
//     MultipleOf(16)) takes 128 and its multiples.
//   - When --block-size is not given, Platform.update_block_size_for_backend
//     (vllm/platforms/interface.py, "Phase 1") sets block_size to
//     get_preferred_block_size(16) of the first non-SSM attention backend it
//     finds (_find_non_ssm_backend walks the layers in order): MiniMax-M3's
//     layers 0-2 are dense GQA (sparse_attention_freq 0), whose backend
//     keeps 16, so the sparse group is asked for 16 and the engine fails at
//     KV cache initialisation with "No common block size for 16."
//
// So vLLM does not choose 128 itself: a bundle must write --block-size 128,
// as vLLM's recipe does ("mandatory on every platform"). The first-backend
// pick is vLLM issue #48286; its fixes (#48313, #49845: take every
// backend's sizes) were open when issue #51752 reproduced the same code on
// v0.27.0, so ChosenByVLLM is false for every release table entry; a later
// release that merges them would pick 128 itself, and writing it stays
// harmless there.
const (
	srcM3KernelBlocks = "vllm-project/vllm@0443308aa3e9 vllm/models/minimax_m3/common/sparse_attention.py (MiniMaxM3SparseBackend.get_supported_kernel_block_sizes: [128], \"one sparse block per KV page\") and common/indexer.py (MiniMaxM3IndexerBackend: [128])"
	srcCommonBlock    = "vllm-project/vllm@0027b02769fb vllm/v1/worker/utils.py select_common_block_size / prepare_kernel_block_sizes (kernel block = --block-size, or the largest listed int size dividing it; else ValueError \"No common block size for N\")"
	srcPreferredBlock = "vllm/platforms/interface.py Platform.update_block_size_for_backend Phase 1 (unless user_specified_block_size: get_preferred_block_size(16) of the first non-SSM backend _find_non_ssm_backend finds), read in a stored copy of the file; vllm-project/vllm issue #48286 (a mixed-backend model auto-picks 16, then \"No common block size for 16.\") with its fixes #48313 and #49845 still open, and issue #51752 quoting interface.py:589-626 on v0.27.0: the first backend only, through 0.27.0 at least; a MiniMax-M3 start-up log analysis records \"No common block size for 16.\" from prepare_kernel_block_sizes (secondary)"
	srcM3RecipeBlock  = "vllm-project/recipes@001c08c734a7 models/MiniMaxAI/MiniMax-M3.yaml (base_args --block-size 128; \"--block-size 128 is mandatory on every platform\"; troubleshooting: the default 16 \"misaligns the sparse attention indexing (on AMD it crashes with No common block size for 16)\")"
)

// DeepSeek-V4 (model_type deepseek_v4): each attention layer registers its
// sliding-window cache first (DeepseekV4SWACache, whose backend is
// DeepseekSparseSWABackend, "DEEPSEEK_SPARSE_SWA": kernel blocks
// MultipleOf(64), get_preferred_block_size 256; the SWA cache itself keeps
// fixed 64-token pages), then the compressed MLA cache
// (DeepseekV4MLAAttention, MLAAttentionSpec(block_size=
// cache_config.block_size, compress_ratio); backend
// DeepseekV4FlashMLASparseBackend, "V4_FLASHMLA_SPARSE", kernel blocks
// [256]) and, on C4A layers, the indexer cache (same block_size).
//
//   - --block-size unset: update_block_size_for_backend's Phase 1 takes the
//     first non-SSM attention layer registered (_find_non_ssm_backend walks
//     static_forward_context in order), which is layer 0's
//     DeepseekV4SWACache (built before the MLA layer, and layer 0 has no
//     indexer: compress_ratios[0] is 0 for V4-Flash, 128 for V4-Pro), and
//     sets block_size to DEEPSEEK_SPARSE_SWA's preferred 256, logging
//     "Setting kv cache block size to 256 for DEEPSEEK_SPARSE_SWA backend."
//     Read at the tags v0.20.0, v0.20.1, v0.20.2, v0.21.0, v0.22.0, v0.22.1,
//     v0.23.0 and v0.24.0 (kzwrime/vllm snapshot): interface.py's Phase 1 is
//     byte-identical in all of them, sparse_swa.py's get_preferred_block_size
//     returns 256 in each, and the SWA cache is constructed first in
//     vllm/model_executor/layers/deepseek_v4_attention.py (v0.20.x, v0.21.0)
//     and vllm/models/deepseek_v4/attention.py (v0.22.0 on). Seen in a
//     start-up log of the stock vllm/vllm-openai:v0.25.0 image and of a
//     0.29.1rc1 nightly. 0.25.1 and 0.26.0 on were not read: unknown, so the
//     bundle writes --block-size 256 there, as vLLM's recipe
//     (models/deepseek-ai/DeepSeek-V4-Flash.yaml) does, which is harmless
//     whatever the release picks.
//   - --block-size given: Phase 1 is skipped (user_specified_block_size);
//     the compressed caches' kernel block must come from [256]
//     (DeepseekV4FlashMLASparseBackend in flashmla_sparse.py at v0.20.x-
//     v0.21.0, vllm/models/deepseek_v4/nvidia/flashmla.py at v0.22.x,
//     DeepseekV4FlashMLABackend in vllm/models/deepseek_v4/sparse_mla.py at
//     v0.23.0-v0.24.0; the V4 indexer backend [256] in indexer.py at all of
//     them; the layers' backend is fixed, not chosen by the selector), so a
//     multiple of 256 runs and anything else stops in
//     select_common_block_size with "No common block size for N".
//
// The compressed pages then cover 256 token positions (256 / ratio stored
// entries) and the SWA pages 64: catalog.DeepseekV4Caches' geometry.
const (
	srcDSV4SWABlock = "read at the tags v0.20.0-v0.24.0 (kzwrime/vllm snapshot of vllm-project/vllm): vllm/platforms/interface.py update_block_size_for_backend Phase 1 (unless user_specified_block_size, the first non-SSM layer's get_preferred_block_size(16)); " +
		"vllm/v1/attention/backends/mla/sparse_swa.py (DeepseekSparseSWABackend \"DEEPSEEK_SPARSE_SWA\": get_supported_kernel_block_sizes [MultipleOf(64)], get_preferred_block_size 256; DeepseekV4SWACache.block_size = 64); " +
		"the SWA cache layer built before the MLA layer in vllm/model_executor/layers/deepseek_v4_attention.py (v0.20.x-v0.21.0) and vllm/models/deepseek_v4/attention.py (v0.22.0-v0.24.0); " +
		"the compressed MLA backend's kernel blocks [256] (flashmla_sparse.py DeepseekV4FlashMLASparseBackend v0.20.x-v0.21.0, models/deepseek_v4/nvidia/flashmla.py v0.22.x, models/deepseek_v4/sparse_mla.py DeepseekV4FlashMLABackend v0.23.0-v0.24.0) and DeepseekV4IndexerBackend [256] (indexer.py)"
	srcDSV4BlockLogs   = "start-up log of the stock vllm/vllm-openai:v0.25.0 image serving deepseek-ai/DeepSeek-V4-Flash without --block-size: \"[interface.py:620] Setting kv cache block size to 256 for DEEPSEEK_SPARSE_SWA backend.\"; the same line in a 0.29.1rc1.dev9 nightly log; 0.25.1 and 0.26.0 on not read (unknown)"
	srcDSV4RecipeBlock = "vllm-project/recipes models/deepseek-ai/DeepSeek-V4-Flash.yaml (--block-size 256)"
)

// dsv4PicksBlockRead are the releases whose own pick for DeepSeek-V4 (no
// --block-size) is known to be 256: read at the tags 0.20.0-0.24.0, seen
// in the stock 0.25.0 image's log (srcDSV4BlockLogs). [From, Until).
var dsv4PicksBlockRead = struct{ From, Until Version }{v0200, mustVersion("0.25.1")}

// ArchBlockSize is what an architecture's attention backends require of
// --block-size.
type ArchBlockSize struct {
	// Kernel is the only kernel block size (tokens) the architecture's
	// backends take; --block-size must be a multiple of it.
	Kernel int
	// ChosenByVLLM is true when vLLM picks a fitting block size itself
	// when --block-size is not given (false: the bundle must write it).
	ChosenByVLLM bool
	// PickedBy names what makes vLLM pick it when ChosenByVLLM ("" else).
	PickedBy string
	// WhyWritten says why the bundle writes it when not ChosenByVLLM ("":
	// vLLM's own pick is known to fail).
	WhyWritten string
	// KernelUnread says that the release's kernel block sizes were not
	// read ("" when they were; DeepSeek-V4 after 0.24.x): a size Refusal
	// names is then only unverified, said as an info, never an error.
	KernelUnread string
	Source       string
}

// archBlockSizes are the architectures whose backends take one kernel
// block size, by model_type.
var archBlockSizes = map[string]ArchBlockSize{
	"minimax_m3": {Kernel: 128, ChosenByVLLM: false,
		Source: srcM3KernelBlocks + "; " + srcCommonBlock + "; " + srcPreferredBlock + "; " + srcM3RecipeBlock},
}

// ArchitectureBlockSize returns what modelType's attention backends
// require of --block-size; ok is false when they take vLLM's default.
// The rule holds in every release that serves the architecture (for
// minimax_m3, 0.24.0 on: archSince).
func (r Release) ArchitectureBlockSize(modelType string) (ArchBlockSize, bool) {
	if modelType == "deepseek_v4" {
		return r.dsv4BlockSize(), true
	}
	b, ok := archBlockSizes[modelType]
	return b, ok
}

// dsv4BlockSize is DeepSeek-V4's rule in release r: 256-token kernel blocks
// for the compressed caches, picked by vLLM itself in the releases read or
// seen (0.20.0-0.25.0), written where the release's pick is unknown (the
// recipe writes it; 256 is what every read release picks).
func (r Release) dsv4BlockSize() ArchBlockSize {
	b := ArchBlockSize{Kernel: 256, Source: srcDSV4SWABlock + "; " + srcCommonBlock + "; " + srcDSV4BlockLogs + "; " + srcDSV4RecipeBlock}
	v := r.Version
	if v.AtLeast(v0250) {
		b.KernelUnread = fmt.Sprintf("vLLM %s's kernel block sizes for DeepSeek-V4 were not read (read at 0.20.0-0.24.0)", v)
	}
	if v.AtLeast(dsv4PicksBlockRead.From) && !v.AtLeast(dsv4PicksBlockRead.Until) {
		b.ChosenByVLLM = true
		b.PickedBy = "DEEPSEEK_SPARSE_SWA, the backend of the first attention layer vLLM finds, prefers 256 (\"Setting kv cache block size to 256 for DEEPSEEK_SPARSE_SWA backend.\"; read at the tags 0.20.0-0.24.0, seen in 0.25.0's log)"
		return b
	}
	b.WhyWritten = fmt.Sprintf("the compressed MLA caches take only 256-token kernel blocks and vLLM %s's own pick is unknown (read at 0.20.0-0.24.0 and seen at 0.25.0: DEEPSEEK_SPARSE_SWA's preferred 256): written as --block-size 256, as vLLM's recipe does", v)
	return b
}

// Unverified is Refusal(n) in a release whose kernel sizes were not read
// (KernelUnread), said as unverified; "" when n runs or the sizes were read.
func (b ArchBlockSize) Unverified(n int) string {
	why := b.Refusal(n)
	if why == "" || b.KernelUnread == "" {
		return ""
	}
	return b.KernelUnread + "; there " + why
}

// Refusal is vLLM's answer to --block-size n for the architecture: "" when
// it runs (a multiple of Kernel, split into Kernel-token kernel blocks),
// else the error it stops with.
func (b ArchBlockSize) Refusal(n int) string {
	if b.Kernel <= 0 || (n > 0 && n%b.Kernel == 0) {
		return ""
	}
	return fmt.Sprintf("its attention backends take only %d-token kernel blocks and %d is not a multiple of %d: vLLM stops at KV cache initialisation with \"No common block size for %d.\"", b.Kernel, n, b.Kernel, n)
}

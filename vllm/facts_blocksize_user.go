package vllm

import (
	"fmt"
	"strings"
)

// What a release does with a --block-size the user gives an MLA model
// (DeepSeek-V2/V3/R1, Kimi-K2; with DeepSeek sparse attention: DeepSeek-V3.2,
// GLM-5), read in vLLM's source at the release tags (kzwrime/vllm snapshot,
// which carries vllm-project/vllm's tags v0.1.0-v0.24.0):
//
//   - 0.8.0-0.17.1: CudaPlatform.check_and_update_config
//     (vllm/platforms/cuda.py) rewrites cache_config.block_size before the
//     model is built and logs "Forcing kv cache block size to N for <backend>
//     backend.": an override, never a refusal. Sparse models (index_topk in
//     the config) take FlashMLASparse unless FLASHINFER_MLA_SPARSE is forced,
//     and any size but 64 becomes 64 (v0.11.0-v0.17.1; FlashInferMLASparse
//     keeps 32 and 64). For the dense backends v0.8.0-v0.11.0 test equality
//     (FlashMLA != 64, CUTLASS_MLA != 128 from v0.10.0, FlashInferMLA not in
//     [32, 64] from v0.10.2) and v0.11.1-v0.17.1 divisibility (% 64, % 128,
//     != 32 and % 64).
//   - 0.18.0-0.24.0: the override is gone (v0.18.0's cuda.py has no
//     "Forcing kv cache block size"). A user --block-size is passed to the
//     backend selector (vllm/v1/attention/selector.py: block_size only when
//     user_specified_block_size), whose validate_configuration drops every
//     backend whose get_supported_kernel_block_sizes divides nothing of it
//     (vllm/v1/attention/backend.py supports_block_size: block_size % size
//     == 0); the highest-priority survivor runs, with a warning "--block-size
//     N precluded higher-priority backend(s)" when one was dropped, and none
//     surviving raises ValueError("No valid attention backend found for cuda
//     with ...") while the model is built. Kernel sizes at these tags:
//     FLASHMLA [64], FLASHINFER_MLA [32, 64], CUTLASS_MLA [128],
//     FLASH_ATTN_MLA and TRITON_MLA MultipleOf(16) (FLASH_ATTN_MLA compute
//     capability 9 and no FP8 KV), FLASHMLA_SPARSE [64], FLASHINFER_MLA_SPARSE
//     [32, 64] (capability 10). A sparse model's indexer cache has its own KV
//     cache group whose backend, DeepseekV32IndexerBackend
//     (vllm/v1/attention/backends/mla/indexer.py), takes only [64] on CUDA,
//     so select_common_block_size (vllm/v1/worker/utils.py) stops a size that
//     64 does not divide with "No common block size for N." even where
//     FLASHINFER_MLA_SPARSE took it.
//   - 0.25.0 on: not read. vlaunch sizes as 0.24.0 does and says the
//     release's handling is unverified (an info, never an error).
const (
	srcMLAUserBlockOverride = "vllm/platforms/cuda.py CudaPlatform.check_and_update_config at tags v0.8.0-v0.17.1 (\"Forcing kv cache block size to 64 for FlashMLASparse backend.\": block_size != 64 for index_topk models, v0.11.0-v0.17.1; FlashMLA != 64 to v0.11.0, % 64 from v0.11.1; CUTLASS_MLA != 128 from v0.10.0, % 128 from v0.11.1; FlashInferMLA not in [32, 64] from v0.10.2, != 32 and % 64 from v0.11.1)"
	srcMLAUserBlockSelect   = "vllm/platforms/cuda.py get_attn_backend_cls / get_valid_backends and vllm/v1/attention/backend.py supports_block_size at tags v0.18.0-v0.24.0 (no \"Forcing kv cache block size\"; a user block_size drops backends whose kernel sizes divide none of it, \"No valid attention backend found\" when none is left); kernel sizes from vllm/v1/attention/backends/mla/*.py at the same tags; vllm/v1/attention/backends/mla/indexer.py DeepseekV32IndexerBackend [64] on CUDA and vllm/v1/worker/utils.py select_common_block_size (\"No common block size for N.\")"
)

// UserBlockAction is what vLLM does with a --block-size the user gives.
type UserBlockAction int

const (
	// UserBlockKept: vLLM runs with the given size (split into kernel blocks).
	UserBlockKept UserBlockAction = iota
	// UserBlockOverridden: vLLM replaces the size at start-up and logs it.
	UserBlockOverridden
	// UserBlockSwitched: vLLM keeps the size but runs another attention
	// backend than its default, one that takes it (with a warning).
	UserBlockSwitched
	// UserBlockRefused: vLLM stops at start-up.
	UserBlockRefused
)

// UserBlock is a release's answer to --block-size Given for an MLA model.
type UserBlock struct {
	Given  int
	Action UserBlockAction
	// Runs is the block size vLLM runs with (0 when refused).
	Runs int
	// Backend is the attention backend that runs (the default one unless
	// UserBlockSwitched; "" when refused).
	Backend string
	// Unread is true when the release's handling was not read (0.25.0 on,
	// before 0.8.0): the answer is 0.24.0's (0.8.0's) and a caller reports
	// it as unverified, never as an error.
	Unread bool
	// Why says what vLLM does and why, for a diagnostic.
	Why    string
	Source string
}

// mlaUserBlockUnreadFrom is the first release whose handling was not read
// (the tags read end at v0.24.0).
var mlaUserBlockUnreadFrom = v0250

// mlaKernelSizes are the kernel block sizes of the MLA backends at
// v0.18.0-v0.24.0 (multipleOf16 for the MultipleOf(16) backends).
var mlaKernelSizes = map[string][]int{
	MLAFlashMLA:         {64},
	MLAFlashInfer:       {32, 64},
	MLACutlass:          {128},
	MLAFlashMLASparse:   {64},
	MLAFlashInferSparse: {32, 64},
	MLAFlashAttn:        {multipleOf16},
	MLATriton:           {multipleOf16},
}

const multipleOf16 = -16

// mlaTakes reports whether the backend's kernel sizes divide n.
func mlaTakes(backend string, n int) bool {
	sizes, ok := mlaKernelSizes[backend]
	if !ok {
		return true
	}
	for _, s := range sizes {
		if s == multipleOf16 {
			s = 16
		}
		if n%s == 0 {
			return true
		}
	}
	return false
}

// MLAUserBlockSize is what release r does with --block-size n for an MLA
// model whose default backend (MLABackend's pick for the GPU, KV dtype and
// model) is backend; sparse is true for DeepSeek sparse attention
// (index_topk: DeepSeek-V3.2, GLM-5), smMajor is the GPU's compute
// capability major (0: not NVIDIA or unknown), fp8KV an FP8 KV cache.
func (r Release) MLAUserBlockSize(backend string, sparse bool, smMajor int, fp8KV bool, n int) UserBlock {
	u := UserBlock{Given: n, Runs: n, Backend: backend}
	v := r.Version
	switch {
	case !v.AtLeast(v080):
		u.Unread = true
		u.Source = srcMLAUserBlockOverride
		u.Why = fmt.Sprintf("vLLM %s's handling of --block-size for MLA was not read (0.8.0-0.17.1 override it, 0.18.0-0.24.0 refuse a size the backends cannot take)", v)
		return u
	case !v.AtLeast(v0180):
		return r.mlaOverride(u, sparse)
	}
	if v.AtLeast(mlaUserBlockUnreadFrom) {
		u = mlaSelect(u, sparse, smMajor, fp8KV, v0240)
		u.Unread = true
		u.Why = fmt.Sprintf("vLLM %s's handling was not read; as read at 0.18.0-0.24.0, %s", v, u.Why)
		return u
	}
	return mlaSelect(u, sparse, smMajor, fp8KV, v)
}

// mlaOverride is 0.8.0-0.17.1's cuda.py rewrite of block_size.
func (r Release) mlaOverride(u UserBlock, sparse bool) UserBlock {
	u.Source = srcMLAUserBlockOverride
	v, n := r.Version, u.Given
	divisible := v.AtLeast(v0111)
	force := 0
	switch {
	case sparse && u.Backend == MLAFlashInferSparse:
		if n != 32 && n != 64 {
			force = 64
		}
	case sparse:
		if n != 64 {
			force = 64
		}
	case u.Backend == MLAFlashMLA:
		if (divisible && n%64 != 0) || (!divisible && n != 64) {
			force = 64
		}
	case u.Backend == MLACutlass && v.AtLeast(v0100):
		if (divisible && n%128 != 0) || (!divisible && n != 128) {
			force = 128
		}
	case u.Backend == MLAFlashInfer && v.AtLeast(v0102):
		if (divisible && n != 32 && n%64 != 0) || (!divisible && n != 32 && n != 64) {
			force = 64
		}
	}
	if force == 0 {
		return u
	}
	u.Action, u.Runs = UserBlockOverridden, force
	name := map[string]string{MLAFlashMLASparse: "FlashMLASparse", MLAFlashInferSparse: "FlashInferMLASparse", MLAFlashMLA: "FlashMLA", MLACutlass: "CUTLASS_MLA", MLAFlashInfer: "FlashInferMLA"}[u.Backend]
	if sparse && u.Backend != MLAFlashInferSparse {
		name = "FlashMLASparse"
	}
	u.Why = fmt.Sprintf("vLLM %s replaces --block-size %d with %d at start-up (\"Forcing kv cache block size to %d for %s backend.\")", v, n, force, force, name)
	return u
}

// mlaSelect is 0.18.0-0.24.0's backend selection under a user block size.
func mlaSelect(u UserBlock, sparse bool, smMajor int, fp8KV bool, v Version) UserBlock {
	u.Source = srcMLAUserBlockSelect
	n := u.Given
	if sparse {
		switch {
		case n%64 == 0:
			u.Backend = sparseBackendFor(u.Backend)
			u.Why = fmt.Sprintf("vLLM %s runs %d on %s (64-token kernel blocks, as the indexer cache's)", v, n, u.Backend)
			return u
		case n%32 == 0 && smMajor == 10:
			u.Action, u.Runs, u.Backend = UserBlockRefused, 0, ""
			u.Why = fmt.Sprintf("FLASHINFER_MLA_SPARSE takes %d, but the indexer cache's backend (DEEPSEEK_V32_INDEXER) takes only 64-token kernel blocks: vLLM %s stops at KV cache initialisation with \"No common block size for %d.\"", n, v, n)
			return u
		}
		u.Action, u.Runs, u.Backend = UserBlockRefused, 0, ""
		u.Why = fmt.Sprintf("no sparse MLA backend takes %d-token blocks (FLASHMLA_SPARSE: multiples of 64; the indexer cache: 64): vLLM %s stops while building the model with \"No valid attention backend found\"", n, v)
		return u
	}
	if mlaTakes(u.Backend, n) {
		u.Why = fmt.Sprintf("vLLM %s runs %d on %s, whose kernel blocks divide it", v, n, u.Backend)
		return u
	}
	if n%16 == 0 {
		alt := MLATriton
		if smMajor == 9 && !fp8KV {
			alt = MLAFlashAttn
		}
		u.Why = fmt.Sprintf("%s takes no %d-token blocks, so vLLM %s runs %s instead and warns \"--block-size %d precluded higher-priority backend(s)\"", u.Backend, n, v, alt, n)
		u.Action, u.Backend = UserBlockSwitched, alt
		return u
	}
	u.Action, u.Runs, u.Backend = UserBlockRefused, 0, ""
	u.Why = fmt.Sprintf("no MLA backend takes %d-token blocks (TRITON_MLA: multiples of 16): vLLM %s stops while building the model with \"No valid attention backend found\"", n, v)
	return u
}

// sparseBackendFor keeps a sparse default backend's name.
func sparseBackendFor(b string) string {
	if b == "" {
		return MLAFlashMLASparse
	}
	return b
}

// UserBlockRefusalSince is the first release in which a --block-size can
// stop vLLM at start-up rather than be replaced: 0.18.0, where cuda.py's
// override gave way to the backend selector (the architectures with one
// kernel block size come later: DeepSeek-V4 0.20.0, MiniMax-M3 0.24.0).
func UserBlockRefusalSince() Version { return v0180 }

// MLAUnsetBlockSize is the block size release r runs an MLA model with
// when --block-size is not given, on the backend: up to 0.17.x cuda.py's
// forced sizes (MLABlockSize); from 0.18.0 update_block_size_for_backend's
// Phase 1 sets the first attention layer's get_preferred_block_size(16),
// the smallest kernel size of a backend that does not take 16 — the same
// sizes but for FLASHINFER_MLA ([32, 64]), which then runs 32-token blocks
// (read at v0.18.0-v0.24.0; a public start-up log prints "Setting kv cache
// block size to 32 for FLASHINFER_MLA backend."). From 0.25.0 0.24.0's rule
// is assumed and why says it is unread. forced is false when the backend
// keeps vLLM's default 16.
//
// A sparse model (DeepSeek-V3.2, GLM-5) runs 64 whatever its MLA backend:
// up to 0.17.x cuda.py forces it, and from 0.18.0 the first attention layer
// Phase 1 finds is the indexer's cache (DeepseekV32IndexerCache is built in
// Indexer before the MLA layer, deepseek_v2.py at v0.20.0), whose
// DEEPSEEK_V32_INDEXER backend takes only 64 — not FLASHINFER_MLA_SPARSE's 32.
func (r Release) MLAUnsetBlockSize(backend string) (size int, forced bool, why string) {
	if backend == MLAFlashMLASparse || backend == MLAFlashInferSparse || backend == MLAFlashAttnSparse {
		return r.sparseUnsetBlockSize(backend)
	}
	size, forced = MLABlockSize(backend)
	if !forced {
		return 0, false, ""
	}
	v := r.Version
	if !v.AtLeast(v0180) {
		return size, true, "vLLM forces it for the " + backend + " backend"
	}
	if backend == MLAFlashInfer {
		size = 32
	}
	why = fmt.Sprintf("vLLM picks the %s backend's smallest kernel block (update_block_size_for_backend, read at 0.18.0-0.24.0)", backend)
	if v.AtLeast(mlaUserBlockUnreadFrom) {
		why += "; vLLM " + v.String() + " not read"
	}
	return size, true, why
}

// sparseUnsetBlockSize is MLAUnsetBlockSize for a DeepSeek sparse
// attention model: 64 in every release read.
func (r Release) sparseUnsetBlockSize(backend string) (int, bool, string) {
	v := r.Version
	if !v.AtLeast(v0180) {
		return 64, true, "vLLM forces it for the " + backend + " backend"
	}
	why := "vLLM takes the first attention layer's backend, the indexer cache's DEEPSEEK_V32_INDEXER (built before the MLA layer), whose only kernel block is 64 (update_block_size_for_backend, read at 0.18.0-0.24.0)"
	if v.AtLeast(mlaUserBlockUnreadFrom) {
		why += "; vLLM " + v.String() + " not read"
	}
	return 64, true, why
}

// MLAROCmAiter is vLLM's AITER MLA backend on AMD GPUs.
const MLAROCmAiter = "ROCM_AITER_MLA"

// srcROCmMLA: the MLA backend and block size rule on ROCm, read at the tags
// (kzwrime/vllm snapshot).
const srcROCmMLA = "vllm/platforms/rocm.py get_attn_backend_cls at tags v0.8.5-v0.17.1 (ROCM_AITER_MLA when is_aiter_mla_enabled() or block_size == 1, else TRITON_MLA, which raises for block size 1; " +
	"ROCM_AITER_MLA raises \"does not support block size N.(currently only supports block size 1)\" for N != 1 up to v0.11.0, no block check from v0.11.1; v0.8.0-v0.8.4 TRITON_MLA only) " +
	"and _get_backend_priorities from v0.18.0 (AITER MLA on: ROCM_AITER_MLA, TRITON_MLA, ROCM_AITER_TRITON_MLA; off: TRITON_MLA; v0.18.0 selects with block_size=None, v0.19.0-v0.24.0 with the user's); " +
	"vllm/v1/attention/backends/mla/rocm_aiter_mla.py (builder asserts block_size == 1 v0.9.0-v0.11.0; get_supported_kernel_block_sizes [1] v0.12.0-v0.19.x, [MultipleOf(1)] v0.20.0-v0.24.0), triton_mla.py [MultipleOf(16)], " +
	"vllm/v1/worker/utils.py select_common_block_size (\"No common block size for N.\"); vllm/envs.py VLLM_ROCM_USE_AITER default \"False\", VLLM_ROCM_USE_AITER_MLA default \"True\" (true or 1, any case)"

// ROCmAiterMLAOn reports whether vllm.env turns vLLM's AITER MLA on
// (is_aiter_mla_enabled / rocm_aiter_ops.is_mla_enabled):
// VLLM_ROCM_USE_AITER true and VLLM_ROCM_USE_AITER_MLA not false (its
// default is True), each read as os.getenv(...).lower() in ("true", "1").
func ROCmAiterMLAOn(env map[string]string) bool {
	truthy := func(s string) bool {
		s = strings.ToLower(s)
		return s == "true" || s == "1"
	}
	mla, set := env["VLLM_ROCM_USE_AITER_MLA"]
	return truthy(env["VLLM_ROCM_USE_AITER"]) && (!set || truthy(mla))
}

// rocmMLAReadFrom is the first release whose ROCm MLA selection reads AITER
// (0.8.0-0.8.4 run TRITON_MLA for every MLA model).
var rocmMLAReadFrom = v085

// ROCmMLABlock is what release r does on an AMD GPU with a dense MLA model
// (DeepSeek-V2/V3/R1, Kimi-K2) and --block-size n (0: not given, vLLM's 16
// on ROCm), with AITER MLA on or off (ROCmAiterMLAOn). ok is false before
// 0.8.5, where ROCm runs TRITON_MLA whatever the size (MLAUserBlockSize's
// answer holds). Releases after 0.24.0 take 0.24.0's rule, Unread set.
//
//   - 0.8.5-0.11.0: ROCM_AITER_MLA when AITER MLA is on or n is 1, and it
//     takes only 1 (any other size, the default 16 included, raises);
//     otherwise TRITON_MLA.
//   - 0.11.1-0.17.x: the same choice; ROCM_AITER_MLA takes any size
//     (kernel block 1).
//   - 0.18.0: AITER MLA on runs ROCM_AITER_MLA at any size; off runs
//     TRITON_MLA, chosen without the size, so a size 16 does not divide
//     stops at KV cache initialisation ("No common block size for N.").
//   - 0.19.0-0.24.0: AITER MLA on runs ROCM_AITER_MLA at any size; off
//     leaves only TRITON_MLA, and a size 16 does not divide raises "No
//     valid attention backend found for rocm".
func (r Release) ROCmMLABlock(aiter bool, n int) (u UserBlock, ok bool) {
	v := r.Version
	if !v.AtLeast(rocmMLAReadFrom) {
		return UserBlock{}, false
	}
	unread := v.AtLeast(mlaUserBlockUnreadFrom)
	if unread {
		v = v0240
	}
	size := n
	if size <= 0 {
		size = 16
	}
	u = UserBlock{Given: n, Runs: size, Backend: MLATriton, Source: srcROCmMLA, Unread: unread}
	useAiter := aiter || (size == 1 && !v.AtLeast(v0180))
	switch {
	case useAiter && size != 1 && !v.AtLeast(v0111):
		u.Action, u.Runs, u.Backend = UserBlockRefused, 0, ""
		u.Why = fmt.Sprintf("with AITER MLA on, vLLM %s runs ROCM_AITER_MLA, which takes only 1-token blocks: it stops with \"The selected backend, ROCM_AITER_MLA,does not support block size %d.(currently only supports block size 1)\"", v, size)
	case useAiter:
		u.Backend = MLAROCmAiter
		u.Why = fmt.Sprintf("vLLM %s runs %d-token blocks on ROCM_AITER_MLA (kernel block 1)", v, size)
		if !aiter {
			u.Why += ", which it picks for block size 1 even with AITER off"
		}
	case size%16 != 0 && v.AtLeast(v0190):
		u.Action, u.Runs, u.Backend = UserBlockRefused, 0, ""
		u.Why = fmt.Sprintf("with AITER MLA off only TRITON_MLA is left, which takes multiples of 16: vLLM %s stops while building the model with \"No valid attention backend found for rocm\"; VLLM_ROCM_USE_AITER=1 runs ROCM_AITER_MLA, which takes any size", v)
	case size%16 != 0 && v.AtLeast(v0180):
		u.Action, u.Runs, u.Backend = UserBlockRefused, 0, ""
		u.Why = fmt.Sprintf("with AITER MLA off vLLM %s runs TRITON_MLA (multiples of 16) and stops at KV cache initialisation with \"No common block size for %d.\"; VLLM_ROCM_USE_AITER=1 runs ROCM_AITER_MLA, which takes any size", v, size)
	default:
		u.Why = fmt.Sprintf("vLLM %s runs %d-token blocks on TRITON_MLA (AITER MLA off)", v, size)
	}
	if unread {
		u.Why = fmt.Sprintf("vLLM %s's handling was not read; as read at 0.24.0, %s", r.Version, u.Why)
	}
	return u, true
}

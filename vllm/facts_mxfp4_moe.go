package vllm

import "strings"

// Which kernel runs an MXFP4 checkpoint's routed experts (gpt-oss: MXFP4
// expert weights, BF16 activations) on an NVIDIA GPU, per release. vLLM's
// get_mxfp4_backend (vllm/model_executor/layers/quantization/mxfp4.py,
// 0.10.x–0.1x) and later select_mxfp4_moe_backend (vllm/model_executor/
// layers/fused_moe/oracle/mxfp4.py) pick, without an override:
//
//   - Blackwell (SM100 family) with FlashInfer: FlashInfer's TRT-LLM MXFP4 ×
//     BF16 MoE (SM100_FI_MXFP4_BF16, later FLASHINFER_TRTLLM_MXFP4_BF16, the
//     oracle's first priority);
//   - SM120 (RTX PRO 6000 Blackwell): Marlin (mxfp4MarlinSM120);
//   - Hopper (SM90) and Blackwell without it: OpenAI's triton_kernels
//     matmul_ogs (TRITON: OAITritonExperts) when the triton_kernels module
//     imports, Marlin's W4A16 MoE (MARLIN) otherwise.
//
// So on Hopper the kernel follows the triton_kernels package, which vLLM
// did not ship at first: 0.10.x and 0.11.0 listed no dependency on it
// (PR #27370 added one on 2025-10-22, after 0.11.0, and it was withdrawn:
// issue #27672, 2025-10-28, "users will have to install triton_kernels
// manually"; PR #27523, 2025-10-26, reports that until that dependency SM90
// defaulted to Marlin, and Triton 35% slower on a latency bench at batch
// 16), so a default install or image ran Marlin. PR #28788 ("[Build] Add
// OpenAI triton_kernels", opened 2025-11-15) vendors it as
// vllm/third_party/triton_kernels; a build of main dated 2025-12-09 loads it
// from there (stepfun-ai/Step3-VL-10B issue #10), so 0.14.0 (2026-01-17)
// has it; 0.11.1–0.13.x are not pinned. aiconfigurator's collector, which
// lets vLLM 0.24.0 select the backend as in serving, recorded
// gptossmxfp4moe_triton_oaitritonmxfp4expertsmonolithic on H100 and H200
// and gptossmxfp4moe_flashinfer_trtllm_mxfp4_bf16 on B200, B300 and GB200
// (ai-dynamo/aiconfigurator 095f58a51c4c, systems/data/*/moe/vllm/0.24.0/
// moe_perf.parquet, kernel_source); its H200 tables of 0.18.0 and 0.19.0
// time gpt-oss-120b's experts at 48–51% of the BF16 peak at 4–16 Ki tokens,
// within 10% of 0.24.0's Triton and 2–3× Marlin's rate, so Triton there too.
//
// Overrides: VLLM_MXFP4_USE_MARLIN=1 selects Marlin on every release read;
// VLLM_USE_FLASHINFER_MOE_MXFP4_BF16=1 selects FlashInfer's SM90 MXFP4 ×
// BF16 kernel on Hopper (SM90_FI_MXFP4_BF16; FLASHINFER_CUTLASS_MXFP4_BF16
// in the oracle); the MXFP8-activation variants (VLLM_USE_FLASHINFER_MOE_
// MXFP4_MXFP8, ..._CUTLASS) run on Blackwell.
const srcMXFP4MoE = "vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend (Mxfp4Backend enum at docs.vllm.ai/en/v0.10.2 and v0.18.1; " +
	"selection read in the stored vllm-project/vllm file @007d5005); vllm/model_executor/layers/fused_moe/oracle/mxfp4.py select_mxfp4_moe_backend @001eda31 " +
	"(priority FLASHINFER_TRTLLM_MXFP4_BF16, CK, TRITON, FLASHINFER_CUTLASS_MXFP4_BF16, TRITON_UNFUSED, MARLIN); " +
	"PR #27370 (triton_kernels dependency, 2025-10-22, after 0.11.0) withdrawn per issue #27672; PR #27523 (SM90 default was Marlin before it); " +
	"PR #28788 (vendored vllm/third_party/triton_kernels, opened 2025-11-15; in a 2025-12-09 build per stepfun-ai/Step3-VL-10B issue #10, so in 0.14.0; 0.11.1–0.13.x not pinned); " +
	"ai-dynamo/aiconfigurator 095f58a51c4c moe/vllm/0.24.0 kernel_source (Triton on H100/H200, FlashInfer TRTLLM MXFP4×BF16 on B200/B300/GB200)"

// MXFP4MoEKernel is the kernel family that runs MXFP4 routed experts.
type MXFP4MoEKernel string

// The MXFP4 MoE kernels vLLM selects on NVIDIA GPUs.
const (
	// MXFP4MoEUnknown: the release, GPU or engine is not pinned.
	MXFP4MoEUnknown MXFP4MoEKernel = ""
	// MXFP4MoEMarlin is Marlin's weight-only W4A16 MoE (fused_marlin_moe,
	// MarlinExperts): 4-bit weights dequantised into BF16 MMAs.
	MXFP4MoEMarlin MXFP4MoEKernel = "marlin"
	// MXFP4MoETriton is OpenAI's triton_kernels matmul_ogs (vLLM's
	// OAITritonExperts).
	MXFP4MoETriton MXFP4MoEKernel = "triton_kernels"
	// MXFP4MoEFlashInferSM90 is FlashInfer's CUTLASS MXFP4 × BF16 MoE on
	// Hopper (opt-in).
	MXFP4MoEFlashInferSM90 MXFP4MoEKernel = "flashinfer_cutlass_mxfp4_bf16"
	// MXFP4MoEFlashInferTRTLLM is FlashInfer's TRT-LLM MXFP4 × BF16 MoE on
	// Blackwell.
	MXFP4MoEFlashInferTRTLLM MXFP4MoEKernel = "flashinfer_trtllm_mxfp4_bf16"
	// MXFP4MoEFlashInferMXFP8 is one of FlashInfer's MXFP4 × MXFP8 MoE
	// kernels on Blackwell (opt-in, activations quantised to MXFP8).
	MXFP4MoEFlashInferMXFP8 MXFP4MoEKernel = "flashinfer_mxfp4_mxfp8"
)

// Releases whose Hopper default is Marlin (triton_kernels not shipped) and
// those that ship triton_kernels (so select Triton); in between unknown.
// Read 2026-12-08 in the tags (not yet applied here, since it moves the
// step model's kernel choice for those releases): v0.10.1's
// _should_use_marlin gives Marlin on SM90 without triton_kernels; v0.11.1
// and v0.11.2 list no triton_kernels requirement and have no
// cmake/external_projects/triton_kernels.cmake (Marlin by default), v0.12.0
// has it (triton_kernels v3.5.0; setup.py copies vllm/third_party/triton_kernels), so
// Triton from v0.12.0 — narrowing the unpinned 0.11.1–0.13.x to nothing.
var (
	mxfp4MarlinDefault = Span{Since: v0102, Removed: v0111}
	mxfp4TritonShipped = Span{Since: v0111, Confirmed: v0140}
	// mxfp4TRTLLMBlackwell: SM100_FI_MXFP4_BF16 is in the v0.10.2 enum and
	// the default branch of the stored selection; the 0.24.0 tables pin it.
	mxfp4TRTLLMBlackwell = Span{Since: v0102, Confirmed: mustVersion("0.24.0")}
)

// MXFP4MoEBackend is the kernel a release runs MXFP4 experts with.
type MXFP4MoEBackend struct {
	Kernel MXFP4MoEKernel
	// Verified: a cited source pins the choice for this release (Present);
	// false where the release lies in an unpinned stretch.
	Verified bool
	Source   string
}

// MXFP4MoEBackend reports the MXFP4 MoE kernel release r selects on an
// NVIDIA GPU of compute capability major smMajor (9 Hopper, 10 Blackwell
// SM100 family, 12 SM120 Blackwell: RTX PRO 6000, GB10; other values
// unknown) under the engine's environment env (the override
// variables; nil: none set). Unknown kernels come back as MXFP4MoEUnknown:
// the caller keeps what it knows without the kernel.
func (r Release) MXFP4MoEBackend(smMajor int, env map[string]string) MXFP4MoEBackend {
	b := MXFP4MoEBackend{Source: srcMXFP4MoE}
	if r.Version.Less(v0101) {
		return b // gpt-oss and the MXFP4 method arrived with 0.10.1
	}
	if envTrue(env, "VLLM_MXFP4_USE_MARLIN") && (smMajor == 9 || smMajor == 10 || smMajor == 12) {
		b.Kernel, b.Verified = MXFP4MoEMarlin, true
		return b
	}
	switch smMajor {
	case 9:
		if envTrue(env, "VLLM_USE_FLASHINFER_MOE_MXFP4_BF16") {
			b.Kernel, b.Verified = MXFP4MoEFlashInferSM90, true
			return b
		}
		switch {
		case mxfp4MarlinDefault.Contains(r.Version):
			b.Kernel, b.Verified = MXFP4MoEMarlin, true
		case mxfp4TritonShipped.In(r.Version) == Present:
			b.Kernel, b.Verified = MXFP4MoETriton, true
		}
	case 10:
		if envTrue(env, "VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8") || envTrue(env, "VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8_CUTLASS") {
			b.Kernel, b.Verified = MXFP4MoEFlashInferMXFP8, true
			return b
		}
		if p := mxfp4TRTLLMBlackwell.In(r.Version); p != Absent {
			b.Kernel, b.Verified = MXFP4MoEFlashInferTRTLLM, p == Present
		}
	case 12:
		if mxfp4MarlinSM120.Contains(r.Version) {
			b.Kernel, b.Verified, b.Source = MXFP4MoEMarlin, true, b.Source+"; "+srcMXFP4MoESM120
		}
	}
	return b
}

// SM120 (RTX PRO 6000 Blackwell, GB10): Marlin on every release read, for
// want of another kernel that takes MXFP4 weights × BF16 activations there
// (read 2026-12-08 in the vLLM tags of /work/.mirror/kzwrime+vllm):
//
//   - v0.10.1 (gpt-oss day 0): Mxfp4MoEMethod._should_use_marlin gives
//     Marlin off SM100 when triton_kernels does not import, and FlashInfer
//     only on is_device_capability(100) (quantization/mxfp4.py);
//   - v0.11.0–v0.11.2: get_mxfp4_backend's FlashInfer branches need
//     is_device_capability(100) (SM90 for the opt-in BF16 one), then Marlin
//     when get_device_capability()[0] < 9 or triton_kernels is missing —
//     vLLM shipped no triton_kernels before v0.12.0 (no requirement, no
//     cmake/external_projects/triton_kernels.cmake), so a default install
//     ran Marlin (with triton_kernels installed by hand: Triton);
//   - v0.12.0–v0.19.x: triton_kernels_supported requires (9, 0) <= cap <
//     (11, 0) ("SM120 needs this fix: triton-lang/triton PR #8498"), so
//     Marlin; FlashInfer needs capability 100 (family 100 from v0.13.0);
//   - v0.20.0–v0.24.0 (fused_moe/oracle/mxfp4.py): with no activation
//     requested only the BF16-activation backends stay (_filter_by_activation);
//     FlashInfer TRT-LLM needs the SM100 family (experts/trtllm_mxfp4_moe.py
//     _supports_current_device), OAI Triton (9, 0) <= cap < (11, 0)
//     (experts/gpt_oss_triton_kernels_moe.py), FlashInfer CUTLASS takes
//     (kMxfp4Static, None) only on is_device_capability(90)
//     (flashinfer_cutlass_moe.py _supports_quant_scheme; SM120 only for
//     NVFP4 and MXFP8 activations), AITER is ROCm's: MARLIN
//     (MarlinExperts: CUDA, capability >= 7.5) is the first that accepts.
//
// The same (9, 0) <= cap < (11, 0) gate in every tag from v0.15.0 to
// v0.24.0 was checked by grep; the selection's other branches were read at
// v0.14.0, v0.17.0, v0.20.0 and v0.24.0 only.
var mxfp4MarlinSM120 = Span{Since: v0101, Confirmed: v0101}

const srcMXFP4MoESM120 = "SM120 → Marlin: quantization/mxfp4.py at v0.10.1 and v0.11.0 (Marlin without triton_kernels, which vLLM shipped from v0.12.0: cmake/external_projects/triton_kernels.cmake), " +
	"v0.12.0 and v0.14.0 (triton_kernels gate (9, 0) <= cap < (11, 0), FlashInfer on capability 100 only); " +
	"fused_moe/oracle/mxfp4.py at v0.20.0 and v0.24.0 with experts/trtllm_mxfp4_moe.py (SM100 family), experts/gpt_oss_triton_kernels_moe.py (< (11, 0)), " +
	"flashinfer_cutlass_moe.py (MXFP4 × BF16 on SM90 only), marlin_moe.py MarlinExperts (capability >= 7.5)"

// envTrue reads a boolean environment variable as vLLM's envs.py does for
// these flags (int(value) != 0, or "true").
func envTrue(env map[string]string, key string) bool {
	v, ok := env[key]
	if !ok {
		return false
	}
	v = strings.ToLower(strings.TrimSpace(v))
	return v != "" && v != "0" && v != "false"
}

// Which kernel runs an MXFP4 checkpoint's routed experts on an AMD Instinct
// GPU (issue #28; read 2026-12-06). Both selection codes read give ROCm
// one MXFP4 MoE kernel on CDNA3 (gfx942: MI300X, MI325X), OpenAI's
// triton_kernels matmul_ogs (OAITritonExperts; the oracle's monolithic
// OAITritonMxfp4ExpertsMonolithic):
//
//   - get_mxfp4_backend (vllm/model_executor/layers/quantization/mxfp4.py,
//     stored vllm-project/vllm file @007d5005, late 2025: it cites issue
//     #29317): "elif current_platform.is_rocm() and has_triton_kernels():
//     TRITON", else NONE, which Mxfp4MoEMethod asserts against — no other
//     ROCm kernel, no gfx distinction.
//   - select_mxfp4_moe_backend (vllm/model_executor/layers/fused_moe/
//     oracle/mxfp4.py @001eda31) tries FLASHINFER_TRTLLM_MXFP4_BF16 (CUDA),
//     CK (AITER's AiterExperts), TRITON, …, MARLIN in that order; AiterExperts.
//     _supports_quant_scheme refuses kMxfp4Static unless on_gfx950() ("CK
//     MXFP4 MoE kernels are only supported on gfx950": two stored copies of
//     rocm_aiter_fused_moe.py in the code index, and the diff context of
//     vllm PR #51274, 2026-09-09), and Marlin is CUDA's, so on gfx942 the
//     first supported backend is TRITON. PR #37826 (2026-03-22) widened the
//     Triton experts' device range in this oracle, so it was on main then.
//   - vllm PR #42578 (2026-05-13): "Stage-1 of the gpt-oss-20b MoE forward
//     on MI300X currently goes through the generic matmul_ogs (MXFP4 matmul
//     with fused_activation=swiglu)".
//
// gfx942 has no FP4 (or MX-scaled) MFMA: matmul_ogs upcasts the MXFP4
// weights in the kernel and multiplies in BF16 (the w4a16 path; triton PR
// #6534 benchmarks "bf16 x mx4" on MI300 for that reason). Release 0.17.0
// lies between the two readings, which agree, and InferenceX ran gpt-oss-
// 120b on its ROCm image (vllm/vllm-openai-rocm:v0.17.0, PR #1053, with
// VLLM_ROCM_USE_AITER=1, which cannot select CK there): pinned by that
// inference. Other releases are not pinned (the release trees were not
// read; vllm PR #55934, 2026-09-08, benchmarks an AITER Triton W4A16
// backend, aiter_triton_mxfp4_bf16, beside triton on gfx942 — ~1.8× its
// output throughput at TP8 on a triton 3.8 nightly — whose default status
// was not read). gfx950 (MI350X, MI355X) has FP4 MFMA and AITER's CK MXFP4
// MoE in the oracle era; its release split was not read: unknown.
//
// How that kernel tiles on gfx942 (read 2026-12-06, for issue #28's MI300X
// rows): vLLM leaves the weights and scales in StridedLayout off gfx950 and
// sets no opt-flag constraints on ROCm (_swizzle_mxfp4 in vllm/
// model_executor/layers/quantization/utils/mxfp4_utils.py, main @01b817db;
// the 0.17.0 tree was not read), and triton_kernels' make_default_opt_flags_amd
// (python/triton_kernels/triton_kernels/matmul_ogs_details/opt_flags.py,
// triton-lang/triton@009e8ede and an older stored copy alike; which
// triton_kernels commit the v0.17.0 ROCm image carries was not read) picks
// block_m = max(32, min(next_pow2(tokens per expert), 64)) off CDNA4
// (128 only from 512 tokens per expert). So from 2 to 32 tokens per expert
// — gpt-oss-120b's 128 experts, top-4, at 64 to 1024 tokens a step — an
// expert hit runs mostly one 32- or 64-row tile (more only where routing
// crowds it): the grouped GEMM's padded work per step is near flat in the
// batch there, which is not what makes InferenceX PR #1053's steps grow
// ~146 µs a session. vllm PR #55934's MI300X TP8 figures
// (nightly image, triton 3.8) grow ~92 µs a session from 64 to 128
// sessions with the triton backend (its "gfx950 pin" row; the gfx942
// autotune row was not read) and ~55 µs with aiter_triton_mxfp4_bf16,
// with every GPU holding an eighth of each expert: no kernel-level timing
// says which term that growth is.
//
// No measured kernel table covers any AMD GPU (estimate/perf KernelFigures),
// so the step model keeps the fitted expert constants there; this records
// which kernel they stand for.
const srcMXFP4MoEROCm = "vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend @007d5005 (ROCm: TRITON when triton_kernels imports, else NONE); " +
	"vllm/model_executor/layers/fused_moe/oracle/mxfp4.py select_mxfp4_moe_backend @001eda31 (CK before TRITON); " +
	"rocm_aiter_fused_moe.py AiterExperts._supports_quant_scheme (MXFP4 on gfx950 only; also vllm PR #51274 diff context); " +
	"vllm PR #37826 (oracle on main 2026-03-22), PR #42578 (MI300X gpt-oss MoE through matmul_ogs, 2026-05-13), PR #55934 (aiter_triton_mxfp4_bf16 beside triton on gfx942); " +
	"SemiAnalysisAI/InferenceX PR #1053 (gpt-oss-120b on MI300X, vllm/vllm-openai-rocm:v0.17.0)"

// MXFP4MoEAITERCK is AITER's Composable-Kernel MXFP4 MoE (vLLM's
// AiterExperts; gfx950 only).
const MXFP4MoEAITERCK MXFP4MoEKernel = "aiter_ck"

// mxfp4ROCmTritonPinned: the releases whose gfx942 choice (Triton) a cited
// source pins; outside them the same choice is read on main but not tied
// to a release.
var mxfp4ROCmTritonPinned = Span{Since: v0170, Removed: mustVersion("0.18.0")}

// MXFP4MoEBackendROCm reports the MXFP4 MoE kernel release r selects on an
// AMD GPU of LLVM target gfx ("gfx942": MI300X, MI325X; "gfx950": MI350X,
// MI355X). Unknown targets and unpinned releases come back as
// MXFP4MoEUnknown. The override variables of the NVIDIA side do not apply:
// VLLM_MXFP4_USE_MARLIN asks for a CUDA-only kernel.
func (r Release) MXFP4MoEBackendROCm(gfx string) MXFP4MoEBackend {
	b := MXFP4MoEBackend{Source: srcMXFP4MoEROCm}
	if gfx == "gfx942" && mxfp4ROCmTritonPinned.Contains(r.Version) {
		b.Kernel, b.Verified = MXFP4MoETriton, true
	}
	return b
}

package vllm

// Which kernel runs a compressed-tensors MXFP4 checkpoint's routed experts
// (format mxfp4-pack-quantized, group 32, uint8 E8M0 scales), and at what
// activation precision (issue #23 item 2, read 2026-12-06). vLLM routes
// such experts to CompressedTensorsW4A4Mxfp4MoEMethod, not to gpt-oss's
// Mxfp4MoEMethod, and that method has chosen its kernel four ways in the
// copies read:
//
//  1. hard-coded Marlin (compressed_tensors_moe.py, stored copy search id
//     14193752: mxfp4_backend = NvFp4MoeBackend.MARLIN, experts_cls =
//     MarlinExperts): W4A16 on every GPU.
//  2. "use cutlass if supported, otherwise fallback to marlin for weight-
//     only FP4" (compressed_tensors_moe_w4a4_mxfp4.py, stored copy id
//     51796269583): CutlassExpertsMxfp4 where its _supports_current_device
//     holds, MarlinExperts otherwise. A deployment note that read the
//     0.28.0 tree cites this form's two log lines there ("Using
//     CutlassExpertsMxfp4 for MXFP4 MoE" / "Using MarlinExperts for MXFP4
//     MoE", compressed_tensors_moe_w4a4_mxfp4.py:52,60; ids 68340897412,
//     68439955632): the one release pinned.
//  3. select_mxfp4_moe_backend(moe, activation_key=kMxfp4Dynamic)
//     (vllm-project/vllm 00882314, use_cutlass_mxfp4 = backend ==
//     CUTLASS_MXFP4).
//  4. a candidate list in preference order, CUTLASS_MXFP4_MXFP4,
//     DEEPGEMM_MXFP4, XPU, MARLIN (id 66678307542; id 66481691979 moves it
//     into the oracle as PACKED_MXFP4_CANDIDATE_BACKENDS: "CUTLASS and XPU
//     use W4A4; DeepGEMM W4A8; b12x W4A8 or W4A16; Marlin W4A16").
//
// Which form each release has, read at the tags (branch models41,
// 2026-12-07, a snapshot of kzwrime/vllm carrying vllm-project/vllm's
// tags): no CompressedTensorsW4A4Mxfp4MoEMethod through v0.14.1; form 1
// (compressed_tensors_moe.py, "experts_cls = MarlinExperts") at v0.15.0,
// v0.16.0, v0.17.0, v0.18.0 and v0.19.0; form 2
// (compressed_tensors_moe/compressed_tensors_moe_w4a4_mxfp4.py: "use_cutlass_mxfp4
// = CutlassExpertsMxfp4._supports_current_device()", "Using
// CutlassExpertsMxfp4 for MXFP4 MoE" at line 53 of v0.24.0) at v0.20.0,
// v0.22.0 and v0.24.0, CutlassExpertsMxfp4's _supports_activation the
// same seven at v0.20.0 and v0.24.0, and its device test 100 <= capability
// < 120 (csrc/libtorch_stable/quantization/fp4/mxfp4_experts_quant.cu:378
// at v0.24.0). Releases 0.15.0–0.19.x are therefore Marlin W4A16 on every
// GPU (Verified), 0.20.0–0.24.x CUTLASS on SM100–SM119 and Marlin on Hopper
// (Verified), 0.28.0 as pinned below, and 0.25.0–0.27.x and later as the
// forms since 2 read (not Verified).
//
// From 2 on the first choice is CUTLASS's MXFP4 × MXFP4 grouped GEMM
// (CutlassExpertsMxfp4: quant scheme (kMxfp4Static, kMxfp4Dynamic), the
// activations quantised to MXFP4 per 32 by mxfp4_experts_quant: W4A4, the
// FP4 tensor-core peak). Its device test is ops.mxfp4_experts_quant_
// supported: 100 <= capability < 120 in a CUDA >= 12.9 build
// (csrc/quantization/fp4/mxfp4_experts_quant.cu @0f5257e2,
// mxfp4_experts_quant_sm_supported) — SM100 and SM103 (B200, B300, GB200,
// GB300) yes; SM90 (Hopper) and SM120 (RTX Pro 6000, RTX 50) no. Its
// _supports_activation (stored cutlass_moe.py copy, id 60313398713) lists
// SILU, GELU, SWIGLUOAI, SWIGLUSTEP and the three _NO_MUL forms — not SiTU.
// Where CUTLASS is refused:
//
//   - Hopper: DeepGemmFP4Experts (m_grouped_fp8_fp4_gemm_nt_contiguous, FP8
//     activations: W4A8) requires Blackwell; Marlin (SM75+) takes it:
//     W4A16, BF16 MMAs on upcast weights (the method's warning: "Your GPU
//     does not have native support for FP4 computation ... Weight-only FP4
//     compression will be used leveraging the Marlin kernel").
//   - SM120: Marlin in forms 2–3; in form 4 DeepGEMM's docstring reads
//     "SM100+ (Blackwell)" in one copy (id 69153265054) and "SM100
//     datacenter or SM120 consumer" in another (id 71359109460): W4A8 or
//     W4A16, unknown.
//   - AMD: none of the candidates is a ROCm kernel (CUTLASS, DeepGEMM and
//     Marlin test is_cuda; XPU is Intel's); not traced further: unknown.
//
// Kimi-K3 does not take this method: vLLM's Kimi-K3 support rewrites the
// checkpoint's compressed-tensors mxfp4-pack-quantized config to
// quant_method "mxfp4", moving its experts "from
// CompressedTensorsW4A4Mxfp4MoEMethod to Mxfp4MoEMethod (a wider backend
// set)" (a change digest of the K3 tree, id 71148853771), and the
// Mxfp4MoEMethod copy that serves it (quantization/mxfp4.py, id
// 57355540789) says "K3 is weight-only MXFP4 (W4A16) with SiTU activation,
// which the generic MXFP4 backend selector does not cover": AITER's A16W4
// kernel on ROCm gfx950, select_deepseek_v4_mxfp4_moe_backend (gpt-oss's
// MXFP4 × BF16 oracle) elsewhere. Its checkpoint states no
// input_activations (weight-only), and CUTLASS's list has no SiTU either
// way. Which backend that oracle gives SiTU experts on Blackwell (whether
// FlashInfer TRT-LLM's MXFP4 × BF16 kernel takes SiTU) was not traced; the
// opt-in moe_backend "deep_gemm_mega_moe" (KimiK3MegaMoEExperts, DeepGEMM's
// FP8 × FP4 MegaMoE with activation "situ": W4A8) is not modelled.
const srcMXFP4Packed = "compressed_tensors_moe.py CompressedTensorsW4A4Mxfp4MoEMethod (hard-coded Marlin, stored copy search id 14193752); " +
	"compressed_tensors_moe_w4a4_mxfp4.py (CUTLASS if supported else Marlin: id 51796269583, the 0.28.0 tree per ids 68340897412/68439955632; " +
	"select_mxfp4_moe_backend(activation_key=kMxfp4Dynamic) @00882314; CANDIDATE_BACKENDS CUTLASS_MXFP4_MXFP4, DEEPGEMM_MXFP4, XPU, MARLIN: id 66678307542; " +
	"PACKED_MXFP4_CANDIDATE_BACKENDS: id 66481691979); csrc/quantization/fp4/mxfp4_experts_quant.cu @0f5257e2 mxfp4_experts_quant_sm_supported (100 <= SM < 120, CUDA >= 12.9); " +
	"CutlassExpertsMxfp4._supports_activation (id 60313398713: no SiTU); Kimi-K3 rewritten to Mxfp4MoEMethod (K3 change digest id 71148853771; quantization/mxfp4.py id 57355540789)"

// MXFP4 MoE kernels of the compressed-tensors path.
const (
	// MXFP4MoECutlassW4A4 is CUTLASS's MXFP4 × MXFP4 grouped GEMM
	// (CutlassExpertsMxfp4): activations quantised to MXFP4.
	MXFP4MoECutlassW4A4 MXFP4MoEKernel = "cutlass_mxfp4_mxfp4"
	// MXFP4MoEDeepGEMMW4A8 is DeepGEMM's FP8 × FP4 grouped GEMM
	// (DeepGemmFP4Experts): FP8 activations.
	MXFP4MoEDeepGEMMW4A8 MXFP4MoEKernel = "deepgemm_mxfp4"
)

// MXFP4Activations is the precision a kernel multiplies MXFP4 expert
// weights against: "mxfp4" (W4A4, the FP4 tensor-core peak), "fp8" and
// "mxfp8" (W4A8, the FP8 peak), "bf16" (W4A16: the weights upcast in the
// kernel, BF16 MMAs), "" for an unknown kernel.
func (k MXFP4MoEKernel) MXFP4Activations() string {
	switch k {
	case MXFP4MoECutlassW4A4:
		return "mxfp4"
	case MXFP4MoEDeepGEMMW4A8:
		return "fp8"
	case MXFP4MoEFlashInferMXFP8:
		return "mxfp8"
	case MXFP4MoEMarlin, MXFP4MoETriton, MXFP4MoEFlashInferSM90, MXFP4MoEFlashInferTRTLLM:
		return "bf16"
	}
	return ""
}

// MXFP4Method is the vLLM MoE method an MXFP4 checkpoint's experts take.
type MXFP4Method int

const (
	// MXFP4MethodUnknown: not an MXFP4 checkpoint vlaunch knows the route of.
	MXFP4MethodUnknown MXFP4Method = iota
	// MXFP4MethodGptOss is Mxfp4MoEMethod (quant_method "mxfp4", Mxfp4Config:
	// gpt-oss), whose kernels multiply BF16 activations by default
	// (Release.MXFP4MoEBackend).
	MXFP4MethodGptOss
	// MXFP4MethodPacked is CompressedTensorsW4A4Mxfp4MoEMethod
	// (compressed-tensors mxfp4-pack-quantized: Release.PackedMXFP4MoEBackend).
	MXFP4MethodPacked
)

// mxfp4RewrittenArchs are the architectures whose vLLM model rewrites a
// compressed-tensors MXFP4 config to quant_method "mxfp4" (srcMXFP4Packed).
var mxfp4RewrittenArchs = map[string]bool{"KimiK3ForConditionalGeneration": true}

// MXFP4MethodFor is the method an MXFP4 checkpoint of architecture arch and
// quantization_config quant_method quantMethod takes: gpt-oss's for "mxfp4"
// and for the architectures vLLM rewrites to it (Kimi-K3), the packed
// compressed-tensors method for other "compressed-tensors" checkpoints.
func MXFP4MethodFor(arch, quantMethod string) MXFP4Method {
	switch quantMethod {
	case "mxfp4":
		return MXFP4MethodGptOss
	case "compressed-tensors":
		if mxfp4RewrittenArchs[arch] {
			return MXFP4MethodGptOss
		}
		return MXFP4MethodPacked
	}
	return MXFP4MethodUnknown
}

// cutlassMXFP4Activations are the MoE activations CutlassExpertsMxfp4
// accepts (config hidden_act names; srcMXFP4Packed).
var cutlassMXFP4Activations = map[string]bool{"silu": true, "gelu": true, "swigluoai": true, "swiglustep": true, "relu2": true}

// packedMXFP4Pinned: the releases a cited source shows the CUTLASS-first
// selection in (the 0.28.0 tree); elsewhere from 0.25.0 the choice is the
// one every copy since form 2 reads, not tied to a release (Verified false).
var packedMXFP4Pinned = Span{Since: v0280, Removed: mustVersion("0.28.1")}

// packedMXFP4Form1 and packedMXFP4Form2Read are the releases whose tags
// were read with form 1 (hard-coded Marlin: v0.15.0–v0.19.0) and form 2
// (CUTLASS if supported, else Marlin: v0.20.0–v0.24.0); srcMXFP4PackedTags.
var (
	packedMXFP4Form1     = Span{Since: v0150, Removed: v0200}
	packedMXFP4Form2Read = Span{Since: v0200, Removed: v0250}
)

// srcMXFP4PackedTags: the tags read for the forms.
const srcMXFP4PackedTags = "tags read in kzwrime/vllm's snapshot (upstream tags): no CompressedTensorsW4A4Mxfp4MoEMethod to v0.14.1; " +
	"compressed_tensors_moe.py hard-coded MarlinExperts at v0.15.0-v0.19.0; compressed_tensors_moe_w4a4_mxfp4.py " +
	"CutlassExpertsMxfp4 if _supports_current_device at v0.20.0-v0.24.0 (line 50-54 at v0.24.0); " +
	"csrc/libtorch_stable/quantization/fp4/mxfp4_experts_quant.cu:378 at v0.24.0 (100 <= SM < 120)"

// PackedMXFP4MoEBackend reports the kernel release r runs a compressed-
// tensors MXFP4 checkpoint's experts with (MXFP4MethodPacked) on an NVIDIA
// GPU of compute capability major smMajor (9 Hopper, 10 and 11 the
// SM100–SM110 Blackwell family, 12 SM120), for experts of activation act
// (the config's hidden_act: "silu", "situ", …; "" unknown). CUTLASS W4A4 on
// SM10x/11x for an activation it lists, Marlin W4A16 on Hopper for SiLU
// experts (from 0.20.0); Marlin on every SM80+ GPU for SiLU experts at
// 0.15.0–0.19.x (form 1); SM120, AMD, other activations and releases before
// 0.15.0 unknown. Verified for the releases whose tags were read
// (0.15.0–0.24.x) and the pinned one (0.28.0).
func (r Release) PackedMXFP4MoEBackend(smMajor int, act string) MXFP4MoEBackend {
	b := MXFP4MoEBackend{Source: srcMXFP4Packed + "; " + srcMXFP4PackedTags}
	if r.Version.Less(v0150) {
		return b // no packed MXFP4 MoE method at the v0.14.1 tag
	}
	if packedMXFP4Form1.Contains(r.Version) {
		// Form 1: Marlin on every GPU (SiLU only: its activation list
		// was not read); Marlin needs a CUDA GPU of SM80 or later here.
		if smMajor >= 8 && act == "silu" {
			b.Kernel, b.Verified = MXFP4MoEMarlin, true
		}
		return b
	}
	pinned := packedMXFP4Pinned.Contains(r.Version) || packedMXFP4Form2Read.Contains(r.Version)
	switch {
	case smMajor == 9 && act == "silu":
		// Neither CUTLASS (SM100–119) nor DeepGEMM's FP4 (Blackwell)
		// runs here: Marlin in every form (its activation list was not
		// read: SiLU, which fused_marlin_moe always ran, only).
		b.Kernel, b.Verified = MXFP4MoEMarlin, pinned
	case (smMajor == 10 || smMajor == 11) && cutlassMXFP4Activations[act]:
		b.Kernel, b.Verified = MXFP4MoECutlassW4A4, pinned
	}
	return b
}

// MXFP4MoEBackendFor is the MXFP4 MoE kernel for a checkpoint taking
// method m: gpt-oss's selection (MXFP4MoEBackend, env its overrides) or
// the packed one (PackedMXFP4MoEBackend, act the experts' activation).
func (r Release) MXFP4MoEBackendFor(m MXFP4Method, smMajor int, act string, env map[string]string) MXFP4MoEBackend {
	switch m {
	case MXFP4MethodGptOss:
		return r.MXFP4MoEBackend(smMajor, env)
	case MXFP4MethodPacked:
		return r.PackedMXFP4MoEBackend(smMajor, act)
	}
	return MXFP4MoEBackend{}
}

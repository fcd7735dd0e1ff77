package vllm

// How far gpt-oss's MXFP4 method pads the routed experts before it
// allocates them: Mxfp4MoEMethod.create_weights rounds the hidden size and
// the per-rank intermediate size up to multiples the selected kernel needs
// and stores the experts at the padded shape (w13: E × 2·I_pad × H_pad/2
// bytes, w2: E × H_pad × I_pad/2, scales and biases likewise). The rule
// follows the kernel, not the GPU (read 2026-12-08 in the vLLM tags of
// /work/.mirror/kzwrime+vllm):
//
//   - v0.10.1 quantization/mxfp4.py create_weights: Marlin hidden 256,
//     intermediate 128; FlashInfer (should_use_flashinfer_mxfp4) 256/256;
//     ROCm intermediate 128 (hidden as is); otherwise (Triton)
//     intermediate 64, hidden as is;
//   - v0.11.0 and v0.14.0 create_weights (by Mxfp4Backend): MARLIN 256/128;
//     SM100_FI_MXFP4_BF16 and SM100_FI_MXFP4_MXFP8_TRTLLM 256/256;
//     SM100_FI_MXFP4_MXFP8_CUTLASS and SM90_FI_MXFP4_BF16 128/128; ROCm
//     256/256 at v0.11.0, get_padding_alignment() at v0.14.0–v0.18.0
//     (256 on gfx950, else 128) for both; otherwise (TRITON) intermediate
//     64, hidden as is;
//   - v0.20.0 and v0.24.0 fused_moe/oracle/mxfp4.py
//     mxfp4_round_up_hidden_size_and_intermediate_size (called from
//     maybe_roundup_sizes): MARLIN/BATCHED_MARLIN 256/128 (hidden 128 on
//     XPU); TRT-LLM 256/256; FlashInfer CUTLASS 128/128; any other backend
//     on ROCm 256/256 (from v0.19.0); otherwise (TRITON on CUDA) intermediate 64, hidden
//     as is.
//
// OpenAI's Triton weight swizzle pads on its own as well, but not beyond
// vLLM's rounding for gpt-oss: vLLM builds triton_kernels v3.5.0 (v0.14.0),
// v3.6.0 (v0.17.0–v0.21.0) and v3.5.1 (v0.22.0–v0.24.0)
// (cmake/external_projects/triton_kernels.cmake), whose Hopper value
// layout (HopperMXValueLayout.swizzle_data, the mx_axis-constructor
// version read in the code index) pads the two weight dimensions to 16
// rows and 64 FP4 values — 2880 = 45 × 64 and the 64-rounded
// intermediate already are. triton-lang/triton PR #10428 (2026-05-31),
// which pads the dimension packed by four to 256, postdates those tags.
// The Hopper scale layout's own padding (scale bytes are 1/16 of the
// values') is not counted.
const srcMXFP4Padding = "quantization/mxfp4.py Mxfp4MoEMethod.create_weights at v0.10.1, v0.11.0, v0.14.0, v0.17.0; " +
	"fused_moe/oracle/mxfp4.py mxfp4_round_up_hidden_size_and_intermediate_size at v0.20.0 and v0.24.0; " +
	"triton_kernels HopperMXValueLayout (v3.5/v3.6 era) pads to 64 FP4 values only; triton-lang/triton PR #10428 (256, 2026-05-31) is later"

// MXFP4Padding is the multiple gpt-oss's MXFP4 experts are rounded up to.
type MXFP4Padding struct {
	// Hidden and Inter are the multiples for the hidden size and the
	// per-rank intermediate size (1: not padded).
	Hidden, Inter int
	// Known: the release's rule for this kernel was read; false leaves the
	// caller to assume one.
	Known  bool
	Source string
}

// Releases whose padding rule was read per kernel (see srcMXFP4Padding);
// the kernels' rules did not change between the tags read, so the span is
// open-ended like the kernel choice (MXFP4MoEBackend).
var mxfp4PaddingRead = Span{Since: v0101, Confirmed: v0101}

// MXFP4ExpertPadding is how release r pads gpt-oss's MXFP4 experts for
// kernel k (MXFP4MoEBackend or MXFP4MoEBackendROCm; rocm selects the ROCm
// rule and gfx its target, "gfx942" or "gfx950"). On ROCm the rule does
// not depend on the kernel (every ROCm backend takes create_weights'
// is_rocm branch), so k may be MXFP4MoEUnknown there. Unknown kernels,
// releases and combinations come back with Known false.
func (r Release) MXFP4ExpertPadding(k MXFP4MoEKernel, rocm bool, gfx string) MXFP4Padding {
	p := MXFP4Padding{Hidden: 1, Inter: 1, Source: srcMXFP4Padding}
	v := r.Version
	if !mxfp4PaddingRead.Contains(v) {
		return p
	}
	set := func(h, i int) MXFP4Padding {
		p.Hidden, p.Inter, p.Known = h, i, true
		return p
	}
	if rocm {
		return r.mxfp4ROCmPadding(gfx, set, p)
	}
	switch k {
	case MXFP4MoEMarlin:
		return set(256, 128)
	case MXFP4MoEFlashInferTRTLLM:
		return set(256, 256)
	case MXFP4MoEFlashInferSM90:
		// v0.10.1 had one FlashInfer rule (256/256); from v0.11.0 the SM90
		// CUTLASS backend pads to 128. v0.10.2 was not read.
		switch {
		case v.Less(mustVersion("0.10.2")):
			return set(256, 256)
		case v.AtLeast(v0110):
			return set(128, 128)
		}
	case MXFP4MoETriton:
		return set(1, 64)
	}
	// MXFP4MoEFlashInferMXFP8 stands for the TRT-LLM (256/256) and the
	// CUTLASS (128/128) MXFP8 kernels alike: which one is not resolved here.
	return p
}

// mxfp4ROCmPadding: ROCm rounds the intermediate size to 128 at v0.10.1
// (hidden as is), both to 256 at v0.11.0, both to get_padding_alignment()
// (gfx950 256, else 128) in create_weights' is_rocm branch at v0.14.0,
// v0.15.0, v0.16.0, v0.17.0 and v0.18.0, and both to 256 in the is_rocm
// branch of mxfp4_round_up_hidden_size_and_intermediate_size at v0.19.0,
// v0.19.1, v0.20.0, v0.21.0, v0.22.0, v0.23.0 and v0.24.0 (grep of each
// tag); v0.10.2–v0.13.x are not pinned.
func (r Release) mxfp4ROCmPadding(gfx string, set func(h, i int) MXFP4Padding, p MXFP4Padding) MXFP4Padding {
	v := r.Version
	switch {
	case v.AtLeast(v0140) && v.Less(mustVersion("0.19.0")) && (gfx == "gfx942" || gfx == "gfx950"):
		if gfx == "gfx950" {
			return set(256, 256)
		}
		return set(128, 128)
	case v.AtLeast(mustVersion("0.19.0")) && v.Less(mustVersion("0.25.0")):
		return set(256, 256)
	}
	return p
}

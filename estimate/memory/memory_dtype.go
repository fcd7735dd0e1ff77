package memory

import (
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// bytesBF16 is a 16-bit parameter (input.BytesBF16).
const bytesBF16 = input.BytesBF16

// DTypeRule says how one component is stored (input.DTypeRule).
type DTypeRule = input.DTypeRule

// StorageRule returns how component is stored for the resolved weights
// dtype. The rule lives in package input (input.StorageRule) so that the
// step model, which may not import memory, streams the weights at the
// bytes memory sizes them by.
func StorageRule(in *input.Input, component string) DTypeRule {
	return input.StorageRule(in, component)
}

// mxfpPad is how gpt-oss's MXFP4 experts are padded on this deployment:
// the multiples, the kernel they follow, whether the release's kernel or
// rule is unknown (assumed) and whether a measured stand-in replaces the
// rule read (standIn: OpenAI Triton on NVIDIA, see tritonLoadedStandIn).
type mxfpPad struct {
	hidden, inter int
	kernel        vllm.MXFP4MoEKernel
	assumed       bool
	standIn       bool
}

// tritonLoadedStandIn: on NVIDIA GPUs the OpenAI Triton path's experts take
// more memory than vLLM's create_weights shape (hidden as is, intermediate
// to 64; vllm.Release.MXFP4ExpertPadding). Two logs: gpt-oss-120b TP1 on
// H100 at 0.14.1 ("Using Triton backend", held-out
// gptoss120b-33155-h100-v0141) loads about 6.5% more expert bytes than
// that shape, gpt-oss-20b TP2 on H100 at 0.19.0 (calibration
// gptoss-20b-llmd-h100-tp2) about 10% more; the create_weights shape
// predicts their weights −5.7% and −6.9%. The weight swizzle of the
// triton_kernels vLLM builds (v3.5.0, v3.6.0, v3.5.1) pads only to 64 FP4
// values in the copies read, so what holds the rest is not known. Marlin's
// 256/128 padding lands within +2.3% and +0.9% of both and stands in: a
// measured stand-in, not vLLM's rule, and the report says so.
var tritonLoadedStandIn = [2]int{256, 128}

// mxfp4Padding returns the hidden and per-rank intermediate multiples
// gpt-oss's MXFP4 method pads the experts to. They follow the kernel the
// release selects on the GPU (vllm.Release.MXFP4MoEBackend; on AMD
// MXFP4MoEBackendROCm) through vllm.Release.MXFP4ExpertPadding: Marlin
// 256/128 (Hopper before vLLM shipped triton_kernels, SM120 always),
// FlashInfer TRT-LLM 256/256 (SM100 family), OpenAI Triton hidden as is and
// intermediate to 64 (Hopper once triton_kernels ships; on NVIDIA the
// measured stand-in tritonLoadedStandIn replaces it). Where the kernel
// or its rule is not pinned the old generation rule is assumed — 256/256
// on the SM100 family (TRT-LLM's), 256/128 elsewhere (Marlin's) — and the
// report says so (mxfp4PadText).
func mxfp4Padding(in *input.Input) mxfpPad {
	g, rel := in.GPU, in.Release()
	var b vllm.MXFP4MoEBackend
	rocm := g != nil && g.Vendor == "amd"
	gfx := amdGFX(g)
	switch {
	case rocm:
		b = rel.MXFP4MoEBackendROCm(gfx)
	case g != nil:
		b = rel.MXFP4MoEBackend(g.ComputeMajor, in.Env)
	}
	if rocm {
		// ROCm's rule follows the release and target, not the kernel.
		if p := rel.MXFP4ExpertPadding(b.Kernel, true, gfx); p.Known {
			return mxfpPad{p.Hidden, p.Inter, b.Kernel, false, false}
		}
	} else if b.Kernel != vllm.MXFP4MoEUnknown {
		if p := rel.MXFP4ExpertPadding(b.Kernel, false, ""); p.Known {
			if b.Kernel == vllm.MXFP4MoETriton {
				return mxfpPad{tritonLoadedStandIn[0], tritonLoadedStandIn[1], b.Kernel, false, true}
			}
			return mxfpPad{p.Hidden, p.Inter, b.Kernel, false, false}
		}
	}
	if g.Blackwell() {
		return mxfpPad{256, 256, vllm.MXFP4MoEFlashInferTRTLLM, true, false}
	}
	return mxfpPad{256, 128, vllm.MXFP4MoEMarlin, true, false}
}

// amdGFX is the LLVM target of an AMD Instinct GPU ("" when not known):
// MI300X and MI325X are CDNA3 gfx942, MI350X and MI355X CDNA4 gfx950
// (catalog notes, ROCm GPU specs).
func amdGFX(g *catalog.GPU) string {
	if g == nil || g.Vendor != "amd" {
		return ""
	}
	switch {
	case strings.Contains(g.Name, "MI300") || strings.Contains(g.Name, "MI325"):
		return "gfx942"
	case strings.Contains(g.Name, "MI350") || strings.Contains(g.Name, "MI355"):
		return "gfx950"
	}
	return ""
}

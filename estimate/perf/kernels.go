package perf

import (
	"math"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// Source names the table the figures come from, for reports.
func (k KernelFigures) Source() string {
	if k.System == "" {
		return k.Cited
	}
	if k.DieOf != "" {
		return "aiconfigurator " + k.System + " (vLLM kernels, commit 095f58a5) for the " + k.DieOf +
			", the same die; collectives by the link model"
	}
	return "aiconfigurator " + k.System + " (vLLM kernels, commit 095f58a5)"
}

// KernelFigures are one GPU's kernel rates and floors measured with vLLM's
// own kernels: NVIDIA's aiconfigurator per-operation tables (repository
// ai-dynamo/aiconfigurator at commit 095f58a51c4c, 2026-08-21, systems/data/
// <system>/{gemm,attention,comm}/vllm/0.24.0, a100 at 0.14.0), derived by
// tools/aicdata (its README holds every table and how each figure is read).
// The tables are GPU time of CUDA-graph replays: they say nothing of the
// host, which the fitted constants keep. GPUs the tables do not cover
// (H20, H800, AMD …) keep the fitted global efficiencies, but for the
// figures cited benchmarks give (h20kernels.go, UseH20KernelFigures) and
// for a GPU that shares a covered GPU's die (h800kernels.go,
// UseSharedDieTables: the H800 takes the H100 SXM's tables, its
// collectives excepted).
type KernelFigures struct {
	// System is the aiconfigurator system the figures were read from.
	System string `json:"system"`
	// DieOf names the GPU the figures are given to where System timed
	// another GPU of the same die (h800kernels.go; empty otherwise): its
	// NCCL and custom all-reduce figures are then unset.
	DieOf string `json:"die_of,omitempty"`
	// Cited names the public benchmarks of a GPU no table covers whose
	// figures these are (cited.go: the H20's h20kernels.go, AMD's amdkernels.go;
	// System then empty, and with it the
	// per-shape GEMM tables, NCCL tables and fused-MoE curves).
	Cited string `json:"cited,omitempty"`
	// GEMMBF16 and GEMMFP8 are a large GEMM's achieved fraction of the
	// dense BF16 / FP8 peak (M = 2048, median over N, K in 4096…16384;
	// FP8 is vLLM's per-tensor CUTLASS kernel with its activation
	// quantization, 0 where the GPU has none).
	GEMMBF16 float64 `json:"gemm_bf16"`
	GEMMFP8  float64 `json:"gemm_fp8"`
	// HBM is the weight-streaming fraction of the datasheet bandwidth: the
	// slope of batch-1 BF16 GEMMs over ≥ 32 MiB of weights.
	HBM float64 `json:"hbm"`
	// KernelS is the smallest BF16 GEMM latency: a kernel's floor in a
	// replayed graph, the per-kernel gap of the step model.
	KernelS float64 `json:"kernel_s"`
	// AttnDecodeS is the smallest decode-attention latency (one call per
	// layer) and AttnPerSeqS its growth per sequence of the batch (the fit
	// over ≥ 128 MiB of KV): fixed costs the KV bytes do not carry.
	AttnDecodeS float64 `json:"attn_decode_s"`
	AttnPerSeqS float64 `json:"attn_per_seq_s"`
	// AllReduceS is vLLM's custom all-reduce floor on 8 GPUs (4 on GB200),
	// AllReduceLink its bus bandwidth at the largest message over the
	// NVLink figure (at most 1); zero on PCIe parts, whose all-reduce the
	// link model costs. Up to 8 MiB the measured curve by size and GPU
	// count replaces the line the two make (customar.go, UseCustomARCurve).
	AllReduceS    float64 `json:"all_reduce_s"`
	AllReduceLink float64 `json:"all_reduce_link"`
	// NCCL is the GPU's measured NCCL collectives inside one node
	// (nccl.go; nil on PCIe parts and GPUs without tables): left out of
	// reports like MoE.
	NCCL *NCCLFigures `json:"-"`
	// PrefillAttn is causal prefill attention's achieved fraction of the
	// BF16 peak at 1, 2, 4, 8 and 16 Ki tokens (batch 1).
	PrefillAttn [5]float64 `json:"prefill_attn"`
	// DecodeAttn is compute-bound decode attention's achieved fraction of
	// its peak, where a benchmark gives it (cited figures only: the
	// tables' GPUs keep the fitted Attention).
	DecodeAttn float64 `json:"decode_attn,omitempty"`
	// fittedGEMM is the fitted BF16 GEMM efficiency a cited GEMMBF16
	// replaced (forCited), for the kernels the citation does not cover
	// (StepSetup.marlinGEMMEff).
	fittedGEMM float64
	// citedExpertFP8 is a cited FP8 grouped-GEMM rate (h20kernels.go) that
	// FP8 experts take in place of ExpertGEMM (StepSetup.expertGEMMEff).
	citedExpertFP8 float64
	// MoE is the fused-MoE layer's curves by dtype (nil where the tables
	// have none): left out of reports, which name the table by Source.
	MoE *MoECurves `json:"-"`
	// Windowed is FlashAttention 3's extra cost of a windowed decode call
	// past its window, by KV element type (swafloor.go; nil where the GPU
	// has no figure or the release does not run FA3 for sink models):
	// left out of reports like MoE.
	Windowed *WindowedAttnFloors `json:"-"`
	// SparseMLA is FlashMLA's sparse FP8 decode on this GPU (v4floors.go;
	// nil where vLLM does not run its sm90 kernel on the benchmarked SM):
	// left out of reports like MoE.
	SparseMLA *SparseMLADecode `json:"-"`
}

// MoECurve is a fused-MoE layer's achieved fraction of the dense tensor
// peak (BF16 for BF16 weights, FP8 for FP8, FP4 for NVFP4, BF16 for
// MXFP4, whose kernels multiply BF16 activations: the peak gemmFLOPS
// picks) as a function of the tokens each expert receives,
// x = tokens × top-k / experts — the M of every expert GEMM, which sets
// its FLOPs per weight byte whatever the model's widths — at x = 2^(i−4),
// i = 0…15 (1/16 … 2,048 tokens per expert).
//
// Read by tools/aicdata moecurve -maxgpus 8 -floor 1 from aiconfigurator's
// measured vLLM 0.24.0 tables (repository ai-dynamo/aiconfigurator, commit
// 095f58a51c4c, aic-core/src/aiconfigurator_core/systems/data/<system>/moe/
// vllm/0.24.0/moe_perf.parquet): vLLM's FusedMoE on one rank under
// balanced routing, the median over every model shape (14–17 per dtype) and every
// layout with moe_tp_size × moe_ep_size ≤ 8, each row's latency less the
// table's smallest (the op's fixed routing and launch cost, which the step
// model's per-kernel gap carries). One curve predicts a shape it was not
// built from to a median 9–16% of its latency (p90 35–55%; tools/aicdata/
// README.md, "Fused-MoE curves"). Below the ridge point (StepSetup.
// moeRidge) the op streams its experts' weights and the curve measures
// that, not a GEMM rate: expertTime reads it from the ridge up. The curve
// pools expert widths; where the experts are TP-sharded expertTime scales
// it by the width factor of the slice (MoEWidths, moewidth.go).
type MoECurve [16]float64

// MoECurves are one GPU's fused-MoE curves by the experts' dtype; a zero
// curve is one the tables do not have (the fitted ExpertGEMM then stays).
// FP8 is the table's fp8_block rows (vLLM's Fp8 MoE method, which serves
// block-quantized FP8 checkpoints and online FP8); its per-tensor "fp8"
// rows time ModelOpt checkpoints' FlashInfer-CUTLASS path, 2–4× slower on
// Hopper, which the step model cannot tell from its dtype and does not
// use. INT4 has one shape in the tables, too few to check; it keeps the
// constant.
//
// MXFP4 is gpt-oss's curve (w4a16_mxfp4 rows of vLLM's gpt-oss kernels):
// the kernel MXFP4Kernel names, which vLLM 0.24.0 selected when the table
// was collected — OpenAI's triton_kernels on Hopper, FlashInfer's TRT-LLM
// MXFP4 × BF16 on Blackwell. Releases select other kernels (vllm.Release.
// MXFP4MoEBackend: Marlin on Hopper through 0.11.0, whose MoE reaches 15–23%
// of the BF16 peak at 73–293 tokens per expert in the same tables' Marlin
// rows, where Triton runs gpt-oss-120b's experts at 55–57% at 128–512:
// FLOPs over latency, no floor taken off), so ForRelease keeps the curve only where
// the deployment's release runs MXFP4Kernel on this GPU; elsewhere the
// fitted ExpertGEMM (0.21 of the peak, fitted on vLLM 0.10–0.11 rows, i.e.
// on Marlin) stays. The MXFP4 curve is read unscaled (mxfp4Unscaled).
type MoECurves struct {
	BF16, FP8, NVFP4, MXFP4 MoECurve
	// MXFP4Kernel is the kernel the MXFP4 curve timed.
	MXFP4Kernel vllm.MXFP4MoEKernel
}

// At is the curve at x tokens per expert: log2-linear between grid
// points, flat beyond the ends.
func (c *MoECurve) At(x float64) float64 {
	u := math.Log2(max(x, 1e-9)) + 4
	switch {
	case u <= 0:
		return c[0]
	case u >= float64(len(c)-1):
		return c[len(c)-1]
	}
	i := int(u)
	f := u - float64(i)
	return c[i]*(1-f) + c[i+1]*f
}

// moeCurves are the curves per aiconfigurator system (tools/aicdata
// moecurve -format go; see MoECurve for the table and the reading).
var moeCurves = map[string]*MoECurves{
	"h100_sxm": {
		BF16:        MoECurve{0.0027, 0.00288, 0.00298, 0.00298, 0.00305, 0.00598, 0.0117, 0.0229, 0.043, 0.0733, 0.132, 0.221, 0.318, 0.384, 0.407, 0.518},
		FP8:         MoECurve{0.0022, 0.00272, 0.00279, 0.00291, 0.003, 0.00575, 0.0111, 0.0213, 0.0385, 0.0668, 0.118, 0.172, 0.211, 0.228, 0.272, 0.332},
		MXFP4:       MoECurve{0.00742, 0.00768, 0.00898, 0.00912, 0.00926, 0.0179, 0.0342, 0.0624, 0.109, 0.175, 0.268, 0.404, 0.408, 0.508, 0.506, 0.515},
		MXFP4Kernel: vllm.MXFP4MoETriton,
	},
	"h200_sxm": {
		BF16:        MoECurve{0.00352, 0.00392, 0.0041, 0.00423, 0.00436, 0.00856, 0.0165, 0.0318, 0.0581, 0.0984, 0.177, 0.29, 0.367, 0.437, 0.462, 0.604},
		FP8:         MoECurve{0.00256, 0.00347, 0.00377, 0.00399, 0.00422, 0.00783, 0.0147, 0.0273, 0.0492, 0.0874, 0.15, 0.199, 0.231, 0.247, 0.284, 0.343},
		MXFP4:       MoECurve{0.00778, 0.00805, 0.0108, 0.00996, 0.01, 0.0191, 0.0377, 0.0683, 0.123, 0.183, 0.273, 0.413, 0.41, 0.515, 0.52, 0.529},
		MXFP4Kernel: vllm.MXFP4MoETriton,
	},
	"b200_sxm": {
		BF16:        MoECurve{0.00319, 0.00325, 0.00323, 0.00325, 0.00328, 0.00639, 0.0127, 0.0248, 0.0429, 0.0776, 0.145, 0.24, 0.334, 0.379, 0.347, 0.247},
		FP8:         MoECurve{0.00173, 0.0022, 0.0025, 0.0028, 0.00308, 0.00563, 0.0106, 0.0192, 0.0302, 0.0537, 0.0914, 0.123, 0.142, 0.143, 0.16, 0.178},
		NVFP4:       MoECurve{0.00218, 0.00245, 0.00245, 0.00255, 0.00267, 0.00487, 0.00928, 0.0165, 0.0287, 0.0511, 0.0917, 0.134, 0.189, 0.218, 0.275, 0.36},
		MXFP4:       MoECurve{0.00661, 0.00714, 0.00677, 0.00696, 0.00706, 0.0132, 0.0257, 0.042, 0.0651, 0.12, 0.171, 0.209, 0.213, 0.213, 0.215, 0.214},
		MXFP4Kernel: vllm.MXFP4MoEFlashInferTRTLLM,
	},
	"b300_sxm": {
		BF16:        MoECurve{0.00308, 0.00318, 0.00315, 0.00318, 0.00323, 0.00631, 0.0125, 0.0243, 0.0426, 0.0769, 0.144, 0.238, 0.33, 0.389, 0.355, 0.247},
		FP8:         MoECurve{0.00186, 0.00233, 0.00255, 0.00281, 0.00306, 0.00565, 0.0107, 0.0196, 0.031, 0.0549, 0.094, 0.128, 0.15, 0.151, 0.17, 0.184},
		NVFP4:       MoECurve{0.00135, 0.00152, 0.00152, 0.00162, 0.00169, 0.00307, 0.00592, 0.0107, 0.0186, 0.0333, 0.0597, 0.0892, 0.128, 0.149, 0.197, 0.243},
		MXFP4:       MoECurve{0.00719, 0.00711, 0.00727, 0.00717, 0.00718, 0.0138, 0.0264, 0.0435, 0.0671, 0.123, 0.178, 0.22, 0.223, 0.224, 0.225, 0.223},
		MXFP4Kernel: vllm.MXFP4MoEFlashInferTRTLLM,
	},
	"gb200": {
		BF16:        MoECurve{0.00293, 0.00302, 0.00302, 0.00304, 0.00307, 0.00599, 0.0118, 0.023, 0.0397, 0.072, 0.136, 0.224, 0.311, 0.365, 0.336, 0.233},
		FP8:         MoECurve{0.00163, 0.00211, 0.00239, 0.00263, 0.00289, 0.00529, 0.01, 0.0182, 0.0289, 0.0514, 0.0868, 0.118, 0.138, 0.14, 0.156, 0.175},
		NVFP4:       MoECurve{0.00211, 0.00237, 0.00234, 0.00246, 0.00254, 0.00459, 0.00875, 0.0156, 0.0272, 0.0487, 0.0868, 0.128, 0.184, 0.209, 0.277, 0.364},
		MXFP4:       MoECurve{0.00612, 0.00659, 0.00653, 0.00664, 0.00651, 0.0125, 0.0238, 0.0398, 0.062, 0.116, 0.167, 0.205, 0.209, 0.21, 0.212, 0.209},
		MXFP4Kernel: vllm.MXFP4MoEFlashInferTRTLLM,
	},
}

// measuredKernels maps catalog GPU ids to their figures (tools/aicdata/
// README.md: "Derived tables"; µs and fractions as printed there).
var measuredKernels = map[string]KernelFigures{
	"h100-sxm": {System: "h100_sxm", GEMMBF16: 0.84, GEMMFP8: 0.56, HBM: 0.89, KernelS: 2.45e-6, AttnDecodeS: 9.91e-6, AttnPerSeqS: 0.129e-6,
		NCCL: &ncclH100, AllReduceS: 4.61e-6, AllReduceLink: 1, PrefillAttn: [5]float64{0.24, 0.39, 0.53, 0.61, 0.67}},
	"h200": {System: "h200_sxm", GEMMBF16: 0.83, GEMMFP8: 0.63, HBM: 0.84, KernelS: 2.37e-6, AttnDecodeS: 9.67e-6, AttnPerSeqS: 0.152e-6,
		NCCL: &ncclH200, AllReduceS: 4.71e-6, AllReduceLink: 1, PrefillAttn: [5]float64{0.25, 0.40, 0.52, 0.59, 0.66}},
	"b200": {System: "b200_sxm", GEMMBF16: 0.69, GEMMFP8: 0.46, HBM: 0.82, KernelS: 1.79e-6, AttnDecodeS: 8.46e-6, AttnPerSeqS: 0.0488e-6,
		NCCL: &ncclB200, AllReduceS: 7.33e-6, AllReduceLink: 0.80, PrefillAttn: [5]float64{0.13, 0.24, 0.37, 0.48, 0.55}},
	"b300": {System: "b300_sxm", GEMMBF16: 0.77, GEMMFP8: 0.50, HBM: 0.82, KernelS: 1.50e-6, AttnDecodeS: 7.29e-6, AttnPerSeqS: 0.0432e-6,
		NCCL: &ncclB300, AllReduceS: 6.99e-6, AllReduceLink: 0.81, PrefillAttn: [5]float64{0.16, 0.28, 0.44, 0.60, 0.69}},
	"gb200": {System: "gb200", GEMMBF16: 0.69, GEMMFP8: 0.43, HBM: 0.82, KernelS: 1.78e-6, AttnDecodeS: 8.70e-6, AttnPerSeqS: 0.0467e-6,
		NCCL: &ncclGB200, AllReduceS: 4.97e-6, AllReduceLink: 0.63, PrefillAttn: [5]float64{0.12, 0.22, 0.34, 0.45, 0.55}},
	"a100-80g": {System: "a100_sxm", GEMMBF16: 0.86, HBM: 0.80, KernelS: 2.45e-6, AttnDecodeS: 10.5e-6, AttnPerSeqS: 0.191e-6,
		NCCL: &ncclA100, AllReduceS: 5.62e-6, AllReduceLink: 0.76, PrefillAttn: [5]float64{0.28, 0.40, 0.49, 0.56, 0.56}},
	"l40s": {System: "l40s", GEMMBF16: 0.67, GEMMFP8: 0.50, HBM: 0.82, KernelS: 1.65e-6, AttnDecodeS: 7.17e-6, AttnPerSeqS: 0.105e-6,
		PrefillAttn: [5]float64{0.31, 0.32, 0.49, 0.51, 0.51}},
	"rtx-pro-6000": {System: "rtx_pro_6000_server", GEMMBF16: 0.84, GEMMFP8: 0.76, HBM: 0.84, KernelS: 1.80e-6, AttnDecodeS: 6.76e-6, AttnPerSeqS: 0.0992e-6,
		PrefillAttn: [5]float64{0.31, 0.44, 0.54, 0.60, 0.64}},
}

// MeasuredKernels returns the measured figures of a GPU, if the tables
// cover it or its die (by catalog id: a custom GPU has none; the H800
// through the H100 SXM's, its collectives excepted: sharedDieKernels).
func MeasuredKernels(g *catalog.GPU) (KernelFigures, bool) {
	if g == nil {
		return KernelFigures{}, false
	}
	if k, ok := measuredKernels[g.ID]; ok {
		return k, true
	}
	return sharedDieKernels(g)
}

// ForGPU is e with a GPU's measured kernel figures in place of the fitted
// global ones where the tables cover it (GEMM, FP8 GEMM, HBM, the kernel
// gap, the rates scaled by e's MeasuredCompute and MeasuredHBM; Kernels
// then holds the rest: decode attention's fixed costs, the all-reduce
// floor, prefill attention's curve and the fused-MoE curves, which
// expertTime reads in place of ExpertGEMM). Host, front-end, link and
// all-to-all constants stay e's.
func ForGPU(e Efficiency, g *catalog.GPU) Efficiency {
	k, ok := MeasuredKernels(g)
	if !ok {
		return forCited(e, g)
	}
	c, m := scale(e.MeasuredCompute), scale(e.MeasuredHBM)
	e.GEMM, e.HBM, e.KernelGapS = k.GEMMBF16*c, k.HBM*m, k.KernelS
	if k.GEMMFP8 > 0 {
		e.GEMMFP8 = k.GEMMFP8 * c
	}
	e.Kernels = k
	if c := moeCurves[k.System]; c != nil {
		// Without a release the MXFP4 kernel is unknown: ForRelease adds
		// the MXFP4 curve where the release runs the kernel it timed.
		m := *c
		m.MXFP4 = MoECurve{}
		e.Kernels.MoE = &m
	}
	return e
}

// ForRelease is ForGPU for an engine of vLLM release rel (vllm: false for
// another engine) with environment env: the GPU's measured figures, and
// the MXFP4 fused-MoE curve where rel selects, on this GPU, the kernel the
// curve timed (vllm.Release.MXFP4MoEBackend; MoECurves.MXFP4Kernel).
func ForRelease(e Efficiency, g *catalog.GPU, rel vllm.Release, isVLLM bool, env map[string]string) Efficiency {
	e = ForGPU(e, g)
	e.PackedMXFP4 = vllm.MXFP4MoEBackend{}
	if isVLLM && g != nil {
		// SiLU-family experts: every compressed-tensors MXFP4 MoE the
		// catalog sizes takes one, Kimi-K3's SiTU experts excepted, and
		// vLLM moves those to gpt-oss's method (vllm.MXFP4MethodFor).
		e.PackedMXFP4 = rel.PackedMXFP4MoEBackend(g.ComputeMajor, "silu")
	}
	e.Kernels.Windowed = windowedFloorsFor(e.Kernels.System, g, rel, isVLLM)
	e.Kernels.SparseMLA = sparseMLADecodeFor(sharedDieGPU(g), isVLLM)
	c := moeCurves[e.Kernels.System]
	if !isVLLM || g == nil || c == nil || c.MXFP4[0] <= 0 || e.Kernels.MoE == nil {
		return e
	}
	if b := rel.MXFP4MoEBackend(g.ComputeMajor, env); b.Verified && b.Kernel == c.MXFP4Kernel {
		e.Kernels.MoE.MXFP4 = c.MXFP4
	}
	return e
}

// mxfp4Unscaled: the MXFP4 curve is read as measured, not scaled by
// MeasuredCompute like the other curves. MeasuredCompute was fitted with
// the fitted ExpertGEMM pricing every gpt-oss row, all of them on Marlin
// releases; the one measured bound on a Triton release says the scaled
// curve is too slow: llm-d's router is calibrated at 33,821 prompt tokens/s
// per H200 TP1 prefill instance (idle, through the whole P/D path: at most
// 148 ms for 5,000 tokens), where the scaled curve alone prices the experts
// at 210 ms (unscaled: 88 ms).
const mxfp4Unscaled = true

// moeCurveFLOPS is the fused-MoE rate of curve c at x tokens per expert:
// the peak gemmFLOPS picks times the curve, scaled by MeasuredCompute —
// the MXFP4 curve as measured (mxfp4Unscaled).
func (s *StepSetup) moeCurveFLOPS(c *MoECurve, x float64) float64 {
	if mxfp4Unscaled && s.WeightDType == "mxfp4" {
		return s.gemmFLOPS() * c.At(x)
	}
	return s.gemmFLOPS() * c.At(x) * scale(s.Eff.MeasuredCompute)
}

// scale is a measured-rate share, 1 when unset (an Efficiency built by
// hand).
func scale(x float64) float64 {
	if x <= 0 {
		return 1
	}
	return x
}

// prefillAttnEff is prefill attention's efficiency for a chunk that attends
// to n tokens: the measured (or cited) curve, log-interpolated between 1 Ki
// and 16 Ki tokens and held flat outside, times prefillAttnShare, or the
// fitted constant without a curve.
func (e *Efficiency) prefillAttnEff(n float64) float64 {
	c := e.Kernels.PrefillAttn
	if c[0] <= 0 {
		return e.Attention
	}
	x := math.Log2(max(n, 1) / 1024)
	switch {
	case x <= 0:
		return c[0] * e.prefillAttnShare()
	case x >= 4:
		return c[4] * e.prefillAttnShare()
	}
	i := int(x)
	f := x - float64(i)
	return (c[i]*(1-f) + c[i+1]*f) * e.prefillAttnShare()
}

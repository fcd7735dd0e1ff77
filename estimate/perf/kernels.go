package perf

import (
	"math"

	"github.com/vlaunch/vlaunch/catalog"
)

// Source names the table the figures come from, for reports.
func (k KernelFigures) Source() string {
	if k.System == "" {
		return ""
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
// (H20, H800, AMD …) keep the fitted global efficiencies.
type KernelFigures struct {
	// System is the aiconfigurator system the figures were read from.
	System string
	// GEMMBF16 and GEMMFP8 are a large GEMM's achieved fraction of the
	// dense BF16 / FP8 peak (M = 2048, median over N, K in 4096…16384;
	// FP8 is vLLM's per-tensor CUTLASS kernel with its activation
	// quantization, 0 where the GPU has none).
	GEMMBF16, GEMMFP8 float64
	// HBM is the weight-streaming fraction of the datasheet bandwidth: the
	// slope of batch-1 BF16 GEMMs over ≥ 32 MiB of weights.
	HBM float64
	// KernelS is the smallest BF16 GEMM latency: a kernel's floor in a
	// replayed graph, the per-kernel gap of the step model.
	KernelS float64
	// AttnDecodeS is the smallest decode-attention latency (one call per
	// layer) and AttnPerSeqS its growth per sequence of the batch (the fit
	// over ≥ 128 MiB of KV): fixed costs the KV bytes do not carry.
	AttnDecodeS, AttnPerSeqS float64
	// AllReduceS is vLLM's custom all-reduce floor on 8 GPUs (4 on GB200),
	// AllReduceLink its bus bandwidth at the largest message over the
	// NVLink figure (at most 1); zero on PCIe parts, whose all-reduce the
	// link model costs.
	AllReduceS, AllReduceLink float64
	// PrefillAttn is causal prefill attention's achieved fraction of the
	// BF16 peak at 1, 2, 4, 8 and 16 Ki tokens (batch 1).
	PrefillAttn [5]float64
}

// measuredKernels maps catalog GPU ids to their figures (tools/aicdata/
// README.md: "Derived tables"; µs and fractions as printed there).
var measuredKernels = map[string]KernelFigures{
	"h100-sxm": {System: "h100_sxm", GEMMBF16: 0.84, GEMMFP8: 0.56, HBM: 0.89, KernelS: 2.45e-6, AttnDecodeS: 9.91e-6, AttnPerSeqS: 0.129e-6,
		AllReduceS: 4.61e-6, AllReduceLink: 1, PrefillAttn: [5]float64{0.24, 0.39, 0.53, 0.61, 0.67}},
	"h200": {System: "h200_sxm", GEMMBF16: 0.83, GEMMFP8: 0.63, HBM: 0.84, KernelS: 2.37e-6, AttnDecodeS: 9.67e-6, AttnPerSeqS: 0.152e-6,
		AllReduceS: 4.71e-6, AllReduceLink: 1, PrefillAttn: [5]float64{0.25, 0.40, 0.52, 0.59, 0.66}},
	"b200": {System: "b200_sxm", GEMMBF16: 0.69, GEMMFP8: 0.46, HBM: 0.82, KernelS: 1.79e-6, AttnDecodeS: 8.46e-6, AttnPerSeqS: 0.0488e-6,
		AllReduceS: 7.33e-6, AllReduceLink: 0.80, PrefillAttn: [5]float64{0.13, 0.24, 0.37, 0.48, 0.55}},
	"b300": {System: "b300_sxm", GEMMBF16: 0.77, GEMMFP8: 0.50, HBM: 0.82, KernelS: 1.50e-6, AttnDecodeS: 7.29e-6, AttnPerSeqS: 0.0432e-6,
		AllReduceS: 6.99e-6, AllReduceLink: 0.81, PrefillAttn: [5]float64{0.16, 0.28, 0.44, 0.60, 0.69}},
	"gb200": {System: "gb200", GEMMBF16: 0.69, GEMMFP8: 0.43, HBM: 0.82, KernelS: 1.78e-6, AttnDecodeS: 8.70e-6, AttnPerSeqS: 0.0467e-6,
		AllReduceS: 4.97e-6, AllReduceLink: 0.63, PrefillAttn: [5]float64{0.12, 0.22, 0.34, 0.45, 0.55}},
	"a100-80g": {System: "a100_sxm", GEMMBF16: 0.86, HBM: 0.80, KernelS: 2.45e-6, AttnDecodeS: 10.5e-6, AttnPerSeqS: 0.191e-6,
		AllReduceS: 5.62e-6, AllReduceLink: 0.76, PrefillAttn: [5]float64{0.28, 0.40, 0.49, 0.56, 0.56}},
	"l40s": {System: "l40s", GEMMBF16: 0.67, GEMMFP8: 0.50, HBM: 0.82, KernelS: 1.65e-6, AttnDecodeS: 7.17e-6, AttnPerSeqS: 0.105e-6,
		PrefillAttn: [5]float64{0.31, 0.32, 0.49, 0.51, 0.51}},
	"rtx-pro-6000": {System: "rtx_pro_6000_server", GEMMBF16: 0.84, GEMMFP8: 0.76, HBM: 0.84, KernelS: 1.80e-6, AttnDecodeS: 6.76e-6, AttnPerSeqS: 0.0992e-6,
		PrefillAttn: [5]float64{0.31, 0.44, 0.54, 0.60, 0.64}},
}

// MeasuredKernels returns the measured figures of a GPU, if the tables
// cover it (by catalog id: a custom GPU has none).
func MeasuredKernels(g *catalog.GPU) (KernelFigures, bool) {
	if g == nil {
		return KernelFigures{}, false
	}
	k, ok := measuredKernels[g.ID]
	return k, ok
}

// ForGPU is e with a GPU's measured kernel figures in place of the fitted
// global ones where the tables cover it (GEMM, FP8 GEMM, HBM, the kernel
// gap, the rates scaled by e's MeasuredCompute and MeasuredHBM; Kernels
// then holds the rest: decode attention's fixed costs, the all-reduce
// floor and prefill attention's curve). Host, front-end,
// fused-MoE, link and all-to-all constants stay e's.
func ForGPU(e Efficiency, g *catalog.GPU) Efficiency {
	k, ok := MeasuredKernels(g)
	if !ok {
		return e
	}
	c, m := scale(e.MeasuredCompute), scale(e.MeasuredHBM)
	e.GEMM, e.HBM, e.KernelGapS = k.GEMMBF16*c, k.HBM*m, k.KernelS
	if k.GEMMFP8 > 0 {
		e.GEMMFP8 = k.GEMMFP8 * c
	}
	e.Kernels = k
	return e
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
// to n tokens: the measured curve, log-interpolated between 1 Ki and 16 Ki
// tokens and held flat outside, or the fitted constant without a curve.
func (e *Efficiency) prefillAttnEff(n float64) float64 {
	c := e.Kernels.PrefillAttn
	if c[0] <= 0 {
		return e.Attention
	}
	x := math.Log2(max(n, 1) / 1024)
	switch {
	case x <= 0:
		return c[0] * scale(e.MeasuredCompute)
	case x >= 4:
		return c[4] * scale(e.MeasuredCompute)
	}
	i := int(x)
	f := x - float64(i)
	return (c[i]*(1-f) + c[i+1]*f) * scale(e.MeasuredCompute)
}

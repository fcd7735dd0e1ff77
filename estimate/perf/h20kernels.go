package perf

import "github.com/vlaunch/vlaunch/catalog"

// UseH20KernelFigures gives the H20 (both memory variants) the kernel
// figures public benchmarks cite for it (citedKernels) in place of the
// global fitted efficiencies where a benchmark covers the operation: the
// large BF16 GEMM, causal prefill attention and compute-bound decode
// attention. No aiconfigurator table covers the H20 (issue #28: "derive
// per-GPU efficiency curves from [measured tables] where they cover a GPU,
// keep first principles where they do not"), yet the H20 is a
// compute-starved Hopper (78 SMs, 148 TF BF16 dense against 4.0/4.8 TB/s),
// whose compute-bound kernels run near its peak; the global constants are
// fitted across every GPU the tables do not cover.
//
// Trial of 2026-12-06 (branch h20kern, no refit), off → on: calibration
// 168 → 168 of 184 within ±30% (the H20 calibration rows are mostly
// DeepSeek-R1 in FP8, whose GEMMs keep GEMMFP8: only attention moves them,
// e.g. p3-decode-bs48 +12% → +16%, p3-prefill −52% → −52%); throughput
// holdout 163 → 163 of 375, holdout split 142 → 142 of 295; MoE / moe-ep
// throughput and TPOT at the bar as before (moe-ep throughput median 12% →
// 13%); the held-out P/D TTFT mean 3 → 8 of 12 within ±30%: pegaflow's
// Qwen3-8B on one H20, BF16, +13…+36% → −12…+3% (16K prompt: the prefill
// 3,105 → 2,374 ms against the colocated baseline's measured 2,251). The
// other arm, the cited rates scaled by MeasuredCompute, leaves the
// throughput counts as they are but takes the P/D holdout to 2 of 12
// (16K +141%). Adopted.
var UseH20KernelFigures = true

// citedScaledByMeasuredCompute: whether the cited H20 rates are multiplied
// by the fitted MeasuredCompute share like the aiconfigurator tables'
// figures. They are not: MeasuredCompute (0.42) is the share of the
// tables' CUDA-graph replays a serving step's kernels reach on the GPUs
// the tables cover, fitted on those GPUs' rows with the per-shape GEMM
// tables pricing their dense projections; it has no reading for a GPU
// whose GEMMs no table times, and it would price the H20's GEMMs at
// 0.90 × 0.42 = 0.38 of peak, below the global fitted 0.62 that the H20's
// own calibration rows carry. Kept as a constant so the trial's other arm
// (scaled) can be rerun.
const citedScaledByMeasuredCompute = false

// h20Figures are the H20's cited kernel rates (fractions of the 148 TF
// BF16 dense peak, catalog h20-96g / h20-141g; the two share the GH100
// die cut to 78 SMs and differ in HBM only, which none of these figures
// reads):
//
//   - GEMMBF16 0.90: torch.matmul BF16 square GEMMs on one H20 (PyTorch
//     2.7.0 + CUDA 12.8, i.e. cuBLAS), zzc0721/torch-performance-test-data
//     issue #77 (2025-10-17, "新增性能数据：NVIDIA H20"): 2048³ 120.27,
//     4096³ 133.41, 8192³ 138.60, 10240³ 142.25 TFLOPS. The 4096³ point
//     (133.41 / 148 = 0.901) is the one nearest aiconfigurator's reading of
//     GEMMBF16 (M = 2048, N, K in 4096…16384); the same benchmark on an
//     H100 peaks at 789 TFLOPS (issue #21: 0.80 of 989) where
//     aiconfigurator reads 0.84, so the two readings agree to a few
//     percent. No FP8 dense GEMM at large M on an H20 was found (DeepGEMM
//     PR #116's H20 runs are grouped GEMMs at 16–32 tokens a group): FP8
//     keeps the global GEMMFP8.
//   - PrefillAttn 0.73 at every length: FlashAttention 3 forward, causal,
//     head dim 128, batch 2 × 2,048 tokens on an H20: 0.319 ms, 107.8
//     TFLOPS (Dao-AILab/flash-attention issue #1310, 2024-11-01; cuDNN
//     the same 107.8; non-causal 126.2 = 0.85). One cited length, held
//     flat: causal attention's rate rises toward the non-causal one with
//     length, so 0.73 is a lower bound past 2 Ki tokens (≤ 0.85) and the
//     measured GPUs' curves say it is an upper bound below.
//   - DecodeAttn 0.86: FlashMLA's decode kernel at 3–8 query tokens a
//     sequence (128 sequences × 8,192 context, 64 heads, d 576/512, where
//     it is compute-bound) runs at 120–130 TFLOPS, median 127
//     (deepseek-ai/FlashMLA issue #30, H20, tests/test_flash_mla.py):
//     127 / 148 = 0.86. At one query token and 16 heads the same issue
//     reads 30 TFLOPS and 1,012 GB/s: FlashMLA pads the heads to its
//     64-row tile, a cost the step model does not price (reported, not
//     modelled here).
//
// HBM, the kernel gap, decode attention's floors and the all-reduce keep
// the global constants: no H20 streaming-bandwidth or per-kernel figure was
// found (nvbandwidth's device_local_copy on an H20-3e, NVIDIA/nvbandwidth
// issue #48, is a cudaMemcpy of 1.1 TB/s, not a kernel's read rate). There
// is no System, NCCL or MoE table: the code paths keyed on them (per-shape
// GEMM tables, fused-MoE curves, windowed-attention floors) keep their
// fallbacks.
var h20Figures = KernelFigures{
	Cited:       "cited H20 benchmarks (cuBLAS BF16 GEMM, FlashAttention 3, FlashMLA)",
	GEMMBF16:    0.90,
	PrefillAttn: [5]float64{0.73, 0.73, 0.73, 0.73, 0.73},
	DecodeAttn:  0.86,
}

// citedKernels are the GPUs without aiconfigurator tables that cited
// benchmarks cover (by catalog id), behind their switches.
func citedKernels(g *catalog.GPU) (KernelFigures, bool) {
	if k, ok := amdKernels(g); ok {
		return k, true
	}
	if g == nil || !UseH20KernelFigures {
		return KernelFigures{}, false
	}
	switch g.ID {
	case "h20-96g", "h20-141g":
		return h20Figures, true
	}
	return KernelFigures{}, false
}

// forCited is ForGPU for a GPU the tables do not cover: its cited figures
// over e's, where it has any (e otherwise).
func forCited(e Efficiency, g *catalog.GPU) Efficiency {
	k, ok := citedKernels(g)
	if !ok {
		return e
	}
	c := 1.0
	if citedScaledByMeasuredCompute {
		c = scale(e.MeasuredCompute)
	}
	if k.GEMMBF16 > 0 {
		k.fittedGEMM = e.GEMM
		e.GEMM = k.GEMMBF16 * c
	}
	if k.GEMMFP8 > 0 {
		e.GEMMFP8 = k.GEMMFP8 * c
	}
	if k.DecodeAttn > 0 {
		e.Attention = k.DecodeAttn * c
	}
	e.Kernels = k
	return e
}

// marlinGEMMEff is the rate Marlin's padded tiles are priced at
// (StepModel.expertTimeCall): the BF16 GEMM efficiency in effect, except
// where a cited cuBLAS figure replaced it — Marlin's W4A16 kernel is not
// the GEMM the H20 benchmark timed, so it keeps the fitted constant.
func (s *StepSetup) marlinGEMMEff() float64 {
	if f := s.Eff.Kernels.fittedGEMM; f > 0 && s.gemmEff() == s.Eff.GEMM {
		return f
	}
	return s.gemmEff()
}

// kernelShare is the share of the GPU's kernel figures a serving step
// reaches: MeasuredCompute for the aiconfigurator tables' figures, 1 for
// cited ones (citedScaledByMeasuredCompute).
func (e *Efficiency) kernelShare() float64 {
	if e.Kernels.System == "" && !citedScaledByMeasuredCompute {
		return 1
	}
	return scale(e.MeasuredCompute)
}

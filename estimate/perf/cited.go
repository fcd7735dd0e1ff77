package perf

import "github.com/vlaunch/vlaunch/catalog"

// Cited kernel figures: the GPUs no aiconfigurator table covers whose
// kernels public benchmarks time (the H20: h20kernels.go; AMD:
// amdkernels.go) take those figures in place of the global fitted
// efficiencies, operation by operation, unscaled; what no benchmark covers
// keeps the fitted constant. (A GPU that shares a covered die reads that
// die's tables instead: h800kernels.go.)

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
	if f, ok := h20FP8For(g); ok {
		// Not KernelFigures.GEMMFP8: that would also move INT8 weights
		// onto the FP8 figure (StepSetup.int8AsFP8).
		// The grouped rate is an FP8 kernel's: FP8 experts only
		// (citedExpertEff); BF16, INT4 and MXFP4 experts keep ExpertGEMM.
		e.GEMMFP8, k.citedExpertFP8 = f.GEMMFP8*c, f.ExpertGEMM*c
		k.Cited += "; block-FP8 DeepGEMM GEMM, CUTLASS grouped FP8 GEMM"
		if h20StreamingCited {
			e.HBM = f.HBM
		}
	}
	e.Kernels = k
	return e
}

// citedExpertEff is the cited grouped-GEMM rate for the experts' dtype
// where one is cited (the H20's FP8 experts, UseH20FP8Figures), 0 where
// the fitted ExpertGEMM prices them.
func (s *StepSetup) citedExpertEff() float64 {
	if s.WeightDType == "fp8" && s.HW.FP8FLOPS > 0 {
		return s.Eff.Kernels.citedExpertFP8
	}
	return 0
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

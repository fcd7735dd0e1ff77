package perf

import "github.com/vlaunch/vlaunch/estimate/input"

// Efficiency holds the few global constants that turn peak hardware figures
// into achievable ones. They are the only tuned numbers in the performance
// model; every one is fitted once against published throughput runs (see
// docs/calibration-throughput.md; the runs are in calibration/) and used
// unchanged for every model, GPU and layout. No constant is per scenario.
type Efficiency struct {
	// GEMM is the fraction of the dense tensor-core peak (BF16 or FP8) that
	// linear layers and grouped expert GEMMs reach when compute-bound.
	// Literature: large Hopper FP8 GEMMs reach 60–75% of peak (DeepGEMM),
	// serving engines with small, ragged expert batches less.
	GEMM float64
	// Attention is the fraction of peak attention kernels (FlashMLA,
	// FlashAttention) reach when compute-bound.
	Attention float64
	// HBM is the fraction of the datasheet memory bandwidth a streaming
	// kernel reaches (STREAM-like measurements on Hopper: 80–90%).
	HBM float64
	// Link is the fraction of a link's nominal one-direction bandwidth
	// (NVLink, RDMA NIC) an all-to-all or collective reaches.
	Link float64
	// StepOverheadS is the fixed cost of one engine step with CUDA graphs:
	// scheduling, input preparation, sampling and output processing on the
	// host, plus synchronisation between DP ranks.
	StepOverheadS float64
	// EagerPerLayerS is the extra kernel-launch cost per decoder layer when
	// the step runs without CUDA graphs (about 20–30 kernels of ~5 µs each).
	EagerPerLayerS float64
	// CollectiveS is the fixed cost of one collective — a TP all-reduce, or
	// one dispatch or combine phase of an MoE all-to-all — on top of link
	// latency: kernel launch, flag/barrier synchronisation between GPUs.
	CollectiveS float64
}

// DefaultEfficiency is the calibrated set used everywhere (see
// docs/calibration-throughput.md for the fit and its error per row).
var DefaultEfficiency = Efficiency{
	GEMM:           0.75,
	Attention:      0.75,
	HBM:            0.55,
	Link:           0.55,
	StepOverheadS:  2e-3,
	EagerPerLayerS: 120e-6,
	CollectiveS:    5e-6,
}

// Field is the constant a calibration file names (calibrate.Constants);
// nil for a name the model does not have.
func (e *Efficiency) Field(name string) *float64 {
	switch name {
	case "gemm":
		return &e.GEMM
	case "attention":
		return &e.Attention
	case "hbm":
		return &e.HBM
	case "link":
		return &e.Link
	case "step_overhead_s":
		return &e.StepOverheadS
	case "eager_per_layer_s":
		return &e.EagerPerLayerS
	case "collective_s":
		return &e.CollectiveS
	}
	return nil
}

// EfficiencyFor is the constants in effect for in: the global ones with
// those its calibration file sets (validated against calibrate.Constants
// when the file was read).
func EfficiencyFor(in *input.Input) Efficiency {
	e := DefaultEfficiency
	if f := in.Calibration.File; f != nil {
		for name, v := range f.Constants {
			if p := e.Field(name); p != nil {
				*p = v
			}
		}
	}
	return e
}

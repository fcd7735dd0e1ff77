package perf

import "github.com/vlaunch/vlaunch/estimate/input"

// Efficiency holds the few global constants that turn peak hardware figures
// into achievable ones and price the host's and the API server's work. They
// are the only tuned numbers in the performance model: a named set (Field),
// fitted once on the calibration split of calibration/throughput.yaml
// (docs/calibration-throughput.md) and used unchanged for every model, GPU
// and layout, unless a deployment's own calibration file sets some. No
// constant is per scenario.
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
	// EagerPerLayerS is the extra host cost (Python dispatch and kernel
	// launches) per decoder layer of a step run in PyTorch eager mode
	// (enforce_eager; prefill steps of engines that capture only decode,
	// such as SGLang and vLLM V0), for a layer of eagerOpsRef operations (a
	// dense GQA layer); layers of more operations (MLA, MoE routing, FP8
	// activation quantization) cost proportionally more (eagerLayers).
	EagerPerLayerS float64
	// SGLangEagerPerLayerS is EagerPerLayerS for SGLang, whose prefill
	// steps run eagerly with fewer, fused operations (sgl-kernel); used for
	// the calibration rows SGLang served, never for a vLLM deployment.
	SGLangEagerPerLayerS float64
	// LargeStepPerLayerS is the host cost per (dense-GQA-equivalent) layer
	// of a vLLM V1 step with more tokens on a rank than the largest
	// captured batch: the compiled model launched without CUDA graphs, a
	// prefill chunk. Fitted, it also carries the part of large steps'
	// slowness on Hopper that the physical efficiencies do not
	// (docs/calibration-analysis.md §10), so it exceeds EagerPerLayerS.
	LargeStepPerLayerS float64
	// CollectiveS is the fixed cost of one collective — a TP all-reduce, or
	// one dispatch or combine phase of an MoE all-to-all — on top of link
	// latency: kernel launch, flag/barrier synchronisation between GPUs.
	CollectiveS float64
	// StepPerSeqS is host time per running sequence per step: the
	// engine's scheduling, input preparation, sampling and output
	// processing are loops over its requests.
	StepPerSeqS float64
	// FrontendRequestS is the serving front end's work to ingest one
	// request (HTTP, chat template, tokenization, hand-off to the engine),
	// done one request after another in one API-server process.
	FrontendRequestS float64
	// FrontendTokenS is the front end's work per streamed output token
	// (detokenization, one server-sent event); it delays delivery, not
	// the engine.
	FrontendTokenS float64
}

// DefaultEfficiency is the calibrated set used everywhere, fitted on the
// calibration split of package calibration by go test ./estimate/replay
// -run TestCalibrationFit -fit (docs/calibration-throughput.md: the fit,
// its bounds and its error per row).
var DefaultEfficiency = Efficiency{
	GEMM:                 0.7116,
	Attention:            0.4126,
	HBM:                  0.6469,
	Link:                 0.5277,
	StepOverheadS:        4.095e-3,
	EagerPerLayerS:       593.7e-6,
	SGLangEagerPerLayerS: 491.7e-6,
	LargeStepPerLayerS:   1.649e-3,
	CollectiveS:          32.59e-6,
	StepPerSeqS:          5.03e-6,
	FrontendRequestS:     6.377e-3,
	FrontendTokenS:       91.32e-6,
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
	case "large_step_per_layer_s":
		return &e.LargeStepPerLayerS
	case "sglang_eager_per_layer_s":
		return &e.SGLangEagerPerLayerS
	case "step_per_seq_s":
		return &e.StepPerSeqS
	case "frontend_request_s":
		return &e.FrontendRequestS
	case "frontend_token_s":
		return &e.FrontendTokenS
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

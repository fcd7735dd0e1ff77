package perf

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// UseStorageRuleBytes: the step model streams each component's weights at
// the bytes per parameter the memory model stores them in
// (input.StorageRule: ModelOpt exclusion lists, mixed-precision maps,
// compressed-tensors groups, DeepSeek-V4's FP4 experts under its FP8
// config, MXFP4 experts, float32 routers), not at the coarse bytes of the
// whole model's weights dtype (perfBytesPerParam, denseBytesPerParam), so
// that check sizes and streams a checkpoint's weights alike (issues
// #23/#28). Only the bytes move: the GEMMs' peaks and the measured
// tables' dtype stay the weights dtype's.
var UseStorageRuleBytes = true

// StorageBytes are the bytes per parameter a step streams, by what it
// reads: the routed experts, the dense weights (the parameter-weighted
// mean over denseParts at one GPU's share) and the LM head. Zero fields
// take the coarse rules by the weights dtype.
type StorageBytes struct {
	Expert, Dense, LMHead float64
	// NVFP4 marks the dense components the storage rule stores as NVFP4
	// (input.StorageRule's dtype: a ModelOpt or compressed-tensors NVFP4
	// checkpoint as shipped): with UseNVFP4DenseGEMM their projections
	// take the measured NVFP4 GEMM table, each at the share of layers the
	// checkpoint quantizes (catalog.QuantShares).
	NVFP4 NVFP4Parts
}

// NVFP4Parts are the dense components stored as NVFP4.
type NVFP4Parts struct {
	Attention, DenseMLP, Shared bool
}

// any reports whether some dense component is NVFP4.
func (p NVFP4Parts) any() bool { return p.Attention || p.DenseMLP || p.Shared }

// StorageBytesOf reads in's storage from input.StorageRule, the one
// place that decides how a checkpoint stores each component; zero with
// UseStorageRuleBytes off.
func StorageBytesOf(in *input.Input) StorageBytes {
	if !UseStorageRuleBytes || in == nil || in.Model == nil {
		return StorageBytes{}
	}
	var b StorageBytes
	if in.Model.IsMoE() {
		b.Expert = input.StorageRule(in, input.CompRouted).BytesPerParam
	}
	var params, bytes float64
	for _, d := range denseParts(in.Model, float64(max(1, in.Layout.TP))) {
		params += d.params
		bytes += d.params * input.StorageRule(in, d.comp).BytesPerParam
	}
	if params > 0 {
		b.Dense = bytes / params
	}
	b.LMHead = input.StorageRule(in, input.CompLMHead).BytesPerParam
	fp4 := func(comp string) bool { return input.StorageRule(in, comp).DType == catalog.FormatNVFP4 }
	b.NVFP4 = NVFP4Parts{Attention: fp4(input.CompAttention), DenseMLP: fp4(input.CompDenseMLP), Shared: fp4(input.CompShared)}
	return b
}

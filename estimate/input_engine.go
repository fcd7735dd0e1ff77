package estimate

import (
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// KV block sizes vLLM uses (resolve owns the rule; see resolve.MLABlockSize).
const (
	MLABlockSize          = resolve.MLABlockSize
	MLABlackwellBlockSize = resolve.MLABlackwellBlockSize
	DefaultBlockSize      = resolve.DefaultBlockSize
)

// engineSettings are raw engine settings, for inputs built by hand
// (calibration tables) that still need vLLM's defaults resolved.
type engineSettings = resolve.EngineSettings

// resolveEngine resolves e for a hand-built input (model, GPU, version,
// layout, network, workload already set) through package resolve.
func (in *Input) resolveEngine(e engineSettings) diag.Diagnostics {
	rel, ver, notes, err := resolve.Release(in.VLLMVersion)
	if err != nil {
		return diag.Diagnostics{inputErr(err)}
	}
	p := resolve.Parts{Model: in.Model, GPU: in.GPU, Release: rel, Version: ver, VersionNotes: notes}
	d, err := resolve.Build(p, in.Layout, in.Network, in.Workload, e)
	if err != nil {
		return diag.Diagnostics{inputErr(err)}
	}
	*in = FromResolved(d)
	return nil
}

// autoContext is the input of vllm's auto backend rule for this layout.
func (in *Input) autoContext() vllm.AutoContext {
	l := in.Layout
	multi := l.MultiNode()
	if in.resolved != nil {
		multi = in.resolved.MultiNode()
	}
	return vllm.AutoContext{
		DP: l.DP, EP: l.EP, MultiNode: multi,
		GPUDirectRDMA: in.Network.GPUDirectRDMA, FabricKind: in.Network.InterKind,
		InputTokens: in.Workload.InputTokens, OutputTokens: in.Workload.OutputTokens,
	}
}

// modelActDType is the dtype activations (and an "auto" KV cache) use: the
// config's torch dtype, bf16 unless it says float16.
func (in *Input) modelActDType() string {
	if in.WeightsDType == "fp16" || in.Model.TorchDType == "float16" {
		return "fp16"
	}
	return "bf16"
}

// resolveDTypes sets the input's weights and KV dtypes as model.weights and
// vllm.kv_cache_dtype would (resolve.ResolveDTypes).
func (in *Input) resolveDTypes(weights, kv string) diag.Diagnostics {
	t, err := resolve.ResolveDTypes(in.Model, weights, kv)
	if err != nil {
		return diag.Diagnostics{inputErr(err)}
	}
	in.WeightsDType, in.WeightsFromCheckpoint, in.KVCacheDType = t.Weights.Value, t.FromCheckpoint, t.KVCache.Value
	return nil
}

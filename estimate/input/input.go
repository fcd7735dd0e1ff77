// Package input is what the estimator's models read: Input, a flat view of
// a resolved deployment (package resolve) with every default filled in, and
// the few rules derived from it that several models share (the release,
// CUDA graphs, vLLM's environment defaults, the mean decoding context).
// It is the bottom layer of package estimate: memory, perf, sim, slo and
// search import it; it imports none of them.
package input

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// Layout is the parallel layout of the deployment (resolve.Layout).
type Layout = resolve.Layout

// Network is the resolved interconnect the performance model uses.
type Network = resolve.Network

// Input is everything the memory and performance models need, with every
// default resolved: a flat view of a resolve.Deployment. Build it with
// FromResolved (or FromSpec / Quick), or by hand in tests.
type Input struct {
	Model *catalog.Model
	GPU   *catalog.GPU
	// ModelSource says where the model came from (catalog id or config path).
	ModelSource string
	Layout      Layout
	// WeightsDType is how linear weights are stored: bf16 | fp16 | fp8 | int8 | mxfp4.
	WeightsDType string
	// WeightsFromCheckpoint is true when WeightsDType is what the checkpoint
	// ships (model.weights auto or equal); false means an up-cast or online
	// quantization of it.
	WeightsFromCheckpoint bool
	// KVCacheDType is bf16 | fp16 | fp8.
	KVCacheDType         string
	GPUMemoryUtilization float64
	MaxModelLen          int
	MaxNumSeqs           int
	MaxNumBatchedTokens  int
	// BlockSize is the KV block size vLLM will use (MLA backends force 64).
	BlockSize int
	// All2AllBackend is the MoE all-to-all backend in effect ("" when the
	// all2all kernels do not run: no EP or DP = 1).
	All2AllBackend string
	// All2AllExplicit is true when the user named the backend (spec or
	// VLLM_ALL2ALL_BACKEND) rather than leaving it to `auto`.
	All2AllExplicit bool
	// EnforceEager is vllm.enforce_eager: no CUDA graphs whatever the backend.
	EnforceEager        bool
	CUDAGraphs          bool
	EnableDBO           bool
	EnableEPLB          bool
	NumRedundantExperts int
	// DCP is the decode context parallel size (0 or 1: off): each TP
	// group's KV cache split by token over DCP of its GPUs (vllm.Release.DCP).
	DCP         int
	Network     Network
	Workload    spec.Workload
	SLO         spec.SLO
	VLLMVersion string
	// KVCacheMemoryBytes is --kv-cache-memory-bytes (0: unset): the KV
	// cache each GPU reserves, which vLLM takes without profiling
	// (resolve.Engine.KVCacheMemoryBytes).
	KVCacheMemoryBytes int64
	// Env is the spec's vllm.env (read for VLLM_DEEPEP_BUFFER_SIZE_MB,
	// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, ...).
	Env map[string]string
	// Settings are the effective engine values with their provenance
	// (resolve.Deployment.Settings), for the report; nil when built by hand.
	Settings []resolve.NamedSetting
	// Speculative is speculative decoding (nil: off).
	Speculative *resolve.Speculative
	// Calibration is where the efficiency constants come from (a
	// calibration file, or the global ones when its File is nil).
	Calibration resolve.Calibration
	// resolved is the deployment the input was made from (nil when built by
	// hand); WithLayout and the layout search resolve through it.
	resolved *resolve.Deployment
}

// FromResolved is the estimator's view of a resolved deployment.
func FromResolved(d *resolve.Deployment) Input {
	e := d.Engine
	return Input{Model: d.Model, GPU: d.GPU, ModelSource: d.ModelSource, Layout: d.Layout,
		WeightsDType: e.WeightsDType.Value, WeightsFromCheckpoint: e.WeightsFromCheckpoint, KVCacheDType: e.KVCacheDType.Value,
		GPUMemoryUtilization: e.GPUMemoryUtilization.Value, MaxModelLen: e.MaxModelLen.Value, MaxNumSeqs: e.MaxNumSeqs.Value,
		MaxNumBatchedTokens: e.MaxNumBatchedTokens.Value, BlockSize: e.BlockSize.Value,
		All2AllBackend: e.All2All.Value, All2AllExplicit: e.All2AllExplicit(), EnforceEager: e.EnforceEager,
		CUDAGraphs: e.CUDAGraphs.Value, EnableDBO: e.EnableDBO, EnableEPLB: e.EnableEPLB, NumRedundantExperts: e.NumRedundantExperts,
		DCP: e.DCP.Value, Network: d.Network, Workload: d.Workload, SLO: d.SLO, VLLMVersion: d.Version.Value, Env: e.Env, KVCacheMemoryBytes: e.KVCacheMemoryBytes.Value,
		Settings: d.Settings(), Calibration: d.Calibration, Speculative: e.Speculative, resolved: d}
}

// CheckpointDType is the format of the checkpoint vLLM loads: the
// deployment's (resolve.Deployment.CheckpointDType, which reads a
// pre-quantized copy model.path names), the model's for a hand-built input.
// Every statement of the checkpoint's format reads it (the report's
// settings line, the weights formats, EST106); the storage rules read
// Model.Quant, which describes the model's own checkpoint, not a copy.
func (in *Input) CheckpointDType() string {
	if in.resolved != nil {
		return in.resolved.CheckpointDType()
	}
	return in.Model.CheckpointDType()
}

// DCPSize is the decode context parallel size, at least 1.
func (in *Input) DCPSize() int { return max(1, in.DCP) }

// Resolved is the deployment the input was made from (nil when built by hand).
func (in *Input) Resolved() *resolve.Deployment { return in.resolved }

// WithLayout returns in with layout l and everything that depends on the
// layout resolved again (resolve.Deployment.WithLayout: the all2all backend,
// CUDA graphs) through the deployment it was made from; a hand-built input
// only changes its layout.
func (in Input) WithLayout(l Layout) Input {
	if in.resolved == nil {
		in.Layout = l
		return in
	}
	r := in.resolved.WithLayout(l)
	return FromResolved(&r)
}

// HostGPUs are the nodes' GPU counts (equal nodes for a hand-built input).
func (in *Input) HostGPUs() []int {
	if in.resolved != nil {
		return in.resolved.NodeGPUs()
	}
	out := make([]int, max(in.Layout.Nodes, 1))
	for i := range out {
		out[i] = max(in.Layout.GPUsPerNode, 1)
	}
	return out
}

// SessionTokens is the context one session holds in the KV cache, the
// unit of capacity, and where that figure comes from: the workload's
// session_tokens when stated; else one request's input + output (at most
// max_model_len); else, with no lengths stated, max_model_len.
func (in *Input) SessionTokens() (int, string) {
	w := in.Workload
	switch {
	case w.SessionTokens > 0:
		return w.SessionTokens, "workload.session_tokens"
	case w.InputTokens+w.OutputTokens > 0 && (in.MaxModelLen <= 0 || w.InputTokens+w.OutputTokens < in.MaxModelLen):
		return w.InputTokens + w.OutputTokens, "input + output tokens"
	default:
		return in.MaxModelLen, "max_model_len"
	}
}

// MeanContext is the average context of a decoding sequence: the prompt
// plus half the output; where sessions keep their history
// (Input.Conversation), the mean over a conversation's turns, history
// included (Conversation.MeanContext: the reference's 32,768-token
// sessions of 1024 + 1024-token turns decode over 16,896 tokens on
// average, not 1,536).
func (in *Input) MeanContext() float64 {
	if c, ok := in.Conversation(); ok {
		return c.MeanContext(in.Workload.InputTokens, in.Workload.OutputTokens)
	}
	return float64(in.Workload.InputTokens) + float64(in.Workload.OutputTokens)/2
}

// ActDType is the dtype activations (and an "auto" KV cache) use: the
// config's torch dtype, bf16 unless it says float16.
func (in *Input) ActDType() string {
	if in.WeightsDType == "fp16" || in.Model.TorchDType == "float16" {
		return "fp16"
	}
	return "bf16"
}

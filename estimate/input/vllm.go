package input

import (
	"strconv"

	"github.com/vlaunch/vlaunch/vllm"
)

// Release is the vLLM release whose rules apply: the one the deployment was
// resolved against, else the input's version as package vllm resolves it,
// else the newest release vlaunch knows (the fallback of the release
// defaults).
func (in *Input) Release() vllm.Release {
	if in.resolved != nil {
		return in.resolved.Release
	}
	if r, _, err := vllm.ResolveString(in.VLLMVersion); err == nil {
		return r
	}
	return vllm.Newest()
}

// DBO reports whether vLLM runs dual-batch overlap (two micro-batches, one
// computing while the other exchanges tokens): enable_dbo on, the release
// has --enable-dbo, and the backend in effect is one its config-time
// assertion accepts (vllm.Release.DBORequirement, the rule `generate`
// refuses by). With any other backend vLLM does not start, so no model may
// predict the overlap.
func (in *Input) DBO() bool {
	if !in.EnableDBO {
		return false
	}
	req := in.Release().DBORequirement()
	return req.Available == vllm.Present && req.Accepts(in.All2AllBackend)
}

// SetCUDAGraphs applies vLLM's CUDA-graph rule (vllm.Release.CUDAGraphs) to
// the input's backend, DP size and enforce_eager: for inputs whose backend
// or layout changed after resolution (the what-if variants).
func (in *Input) SetCUDAGraphs() {
	in.CUDAGraphs = in.Release().CUDAGraphs(in.All2AllBackend, in.Layout.DP, in.EnforceEager)
}

// AutoContext is the input of vllm's auto backend rule for this layout.
func (in *Input) AutoContext() vllm.AutoContext {
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

// EnvInt is a positive integer vLLM reads from the environment: the
// spec's vllm.env value, else the release's default
// (vllm.Release.EnvDefault). 0 when neither is known.
func (in *Input) EnvInt(key string) int {
	if v, err := strconv.Atoi(in.Env[key]); err == nil && v > 0 {
		return v
	}
	def, _ := in.Release().EnvDefault(key)
	v, _ := strconv.Atoi(def)
	return v
}

// AsyncSchedulingFlag is what the spec's vllm.extra_args say of async
// scheduling (--async-scheduling, --no-async-scheduling, the last one
// winning as in argparse; nil: nothing said, or an input built by hand).
func (in *Input) AsyncSchedulingFlag() *bool {
	d := in.Resolved()
	if d == nil || d.Spec == nil {
		return nil
	}
	return vllm.ExtraArgBool(d.Spec.VLLM.ExtraArgs, "--async-scheduling")
}

// AsyncScheduling reports whether the deployment's engine schedules the
// next step while the GPU runs this one (vllm.Release.AsyncSchedulingFor:
// the spec's flag, else the release's default where vLLM keeps it on). It
// sets how many batches vLLM keeps in flight, which the step simulation
// (one step of admission lag) and, from 0.26.0, the sliding-window KV
// charge (vllm.Release.SlidingWindowInFlight) both follow.
func (in *Input) AsyncScheduling() bool {
	method := ""
	if sp := in.Speculative; sp != nil {
		method = sp.VLLMMethod
	}
	return in.Release().AsyncSchedulingFor(in.AsyncSchedulingFlag(), in.Layout.PP, method)
}

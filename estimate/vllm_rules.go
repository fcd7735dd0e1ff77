package estimate

import "github.com/vlaunch/vlaunch/vllm"

// release is the vLLM release whose rules apply to in: its version as
// resolved by package vllm, or the newest release vlaunch knows when the
// version does not parse (the same fallback as the release defaults).
func release(in *Input) vllm.Release {
	if r, _, err := vllm.ResolveString(in.VLLMVersion); err == nil {
		return r
	}
	return vllm.Newest()
}

// cudaGraphs applies vLLM's CUDA-graph rule (vllm.Release.CUDAGraphs) to
// in's backend, DP size and enforce_eager, for inputs whose backend or
// layout changed after resolution (layout search, what-if variants).
func cudaGraphs(in *Input) bool {
	return release(in).CUDAGraphs(in.All2AllBackend, in.Layout.DP, in.EnforceEager)
}

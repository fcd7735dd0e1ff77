// Package estimate is vlaunch's feasibility engine: pure functions from an
// Input (a resolved deployment, see package resolve) to per-GPU memory,
// KV-cache capacity, step time and SLO verdicts. Nothing here prints, reads
// files or exits.
package estimate

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// CodeInput reports a deployment FromSpec or QuickInput cannot resolve
// (commands resolve through validate, which reports it with its position).
const CodeInput = codes.EstInput

// Layout is the parallel layout of the deployment (resolve.Layout).
type Layout = resolve.Layout

// Network is the resolved interconnect the performance model uses.
type Network = resolve.Network

// QuickOptions is the quick form of `vlaunch check` (no spec file).
type QuickOptions = resolve.QuickOptions

// Input is everything the memory and performance models need, with every
// default resolved: a flat view of a resolve.Deployment. Build it with
// FromResolved (or FromSpec / QuickInput), or by hand in tests.
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
	Network             Network
	Workload            spec.Workload
	SLO                 spec.SLO
	VLLMVersion         string
	// Env is the spec's vllm.env (read for VLLM_DEEPEP_BUFFER_SIZE_MB,
	// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, ...).
	Env map[string]string
	// Assumptions lists defaults the resolution chose, for the report.
	Assumptions []string
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
		Network: d.Network, Workload: d.Workload, SLO: d.SLO, VLLMVersion: d.Version.Value, Env: e.Env,
		Assumptions: d.Assumptions(), resolved: d}
}

// Resolved is the deployment the input was made from (nil when built by hand).
func (in *Input) Resolved() *resolve.Deployment { return in.resolved }

// FromSpec resolves a loaded, defaulted spec (see resolve.FromSpec); for
// tests and tools: commands resolve through validate.
func FromSpec(d *spec.Deployment) (Input, diag.Diagnostics) {
	r, err := resolve.FromSpec(d)
	if err != nil {
		return Input{}, diag.Diagnostics{inputErr(err)}
	}
	return FromResolved(r), nil
}

// QuickInput resolves the quick form into an Input (see resolve.Quick).
func QuickInput(o QuickOptions) (Input, diag.Diagnostics) {
	r, err := resolve.Quick(o)
	if err != nil {
		return Input{}, diag.Diagnostics{inputErr(err)}
	}
	return FromResolved(r), nil
}

// inputErr turns a resolution error into an error diagnostic.
func inputErr(err error) diag.Diagnostic {
	d := diag.Diagnostic{Code: CodeInput, Severity: diag.Error, Message: err.Error()}
	if fe, ok := err.(*resolve.FieldError); ok {
		d.Path, d.Message, d.Hint = fe.Path, fe.Msg, fe.Hint
	}
	return d
}

// withLayout is in with layout l and everything that depends on the layout
// resolved again (the all2all backend, CUDA graphs) through the deployment
// it was made from; a hand-built input only changes its layout.
func (in Input) withLayout(l Layout) Input {
	if in.resolved == nil {
		in.Layout = l
		return in
	}
	r := in.resolved.WithLayout(l)
	return FromResolved(&r)
}

// candidateLayouts are the layouts the search evaluates: EnumerateLayouts
// for the hosts, kept only where vlaunch can generate them (resolve.Place),
// so `parallelism: auto` never chooses a layout `generate` refuses.
func (in *Input) candidateLayouts() []Layout {
	l := in.Layout
	all := EnumerateLayouts(max(l.Nodes, 1), max(l.GPUsPerNode, 1), in.Model.NumHeads, in.Model.IsMoE())
	hosts := in.hostGPUs()
	out := all[:0]
	for _, c := range all {
		if _, err := resolve.Place(c, hosts); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// hostGPUs are the nodes' GPU counts (equal nodes for a hand-built input).
func (in *Input) hostGPUs() []int {
	if in.resolved != nil {
		return in.resolved.NodeGPUs()
	}
	out := make([]int, max(in.Layout.Nodes, 1))
	for i := range out {
		out[i] = max(in.Layout.GPUsPerNode, 1)
	}
	return out
}

package generator

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// PrefillHeavyRatio is vllm.PrefillHeavyRatio, kept here for the bundle docs.
const PrefillHeavyRatio = vllm.PrefillHeavyRatio

// all2allChoice is the resolved backend and why.
type all2allChoice struct {
	Backend string // "" = emit nothing
	Why     string
}

// resolveAll2All applies the spec's all2all_backend to the release and layout.
func resolveAll2All(d *spec.Deployment, r vllm.Release, multiNode bool) (all2allChoice, diag.Diagnostics) {
	want := d.VLLM.All2AllBackend
	p := d.Parallelism
	if p.Data <= 1 || !p.Expert {
		if want != "" && want != "auto" {
			return all2allChoice{}, diag.Diagnostics{gdiag(d, CodeAll2All, diag.Warning, "vllm.all2all_backend",
				fmt.Sprintf("all2all_backend %s has no effect: the all-to-all kernels only run with DP > 1 and expert parallelism", want), "")}
		}
		return all2allChoice{Why: "no all-to-all: the kernels only run with DP > 1 and expert parallelism"}, nil
	}
	if want == "" || want == "auto" {
		return autoAll2All(d, r, multiNode)
	}
	b, ok := r.All2AllBackend(want)
	if !ok {
		return all2allChoice{}, diag.Diagnostics{gdiag(d, CodeAll2All, diag.Error, "vllm.all2all_backend",
			fmt.Sprintf("vLLM %s has no all-to-all backend %q", r.Version, want),
			fmt.Sprintf("choose one of %v, or auto", r.All2AllBackends()))}
	}
	var ds diag.Diagnostics
	if b.FallsBack(r) {
		ds = append(ds, gdiag(d, CodeAll2All, diag.Warning, "vllm.all2all_backend",
			fmt.Sprintf("vLLM %s accepts %s but has removed it and falls back to allgather_reducescatter", r.Version, want), ""))
	}
	return all2allChoice{Backend: want, Why: "set in the spec"}, ds
}

// autoAll2All applies vllm's shared auto rule and adds the generator's
// warnings (RoCE, no GPU-initiated RDMA across nodes).
func autoAll2All(d *spec.Deployment, r vllm.Release, multiNode bool) (all2allChoice, diag.Diagnostics) {
	backend, why := r.AutoAll2All(AutoContext(d, multiNode))
	choice := all2allChoice{Backend: backend, Why: why}
	if b, ok := r.All2AllBackend(backend); ok && b.DeepEP {
		return choice, roceNote(d)
	}
	if !multiNode {
		return choice, nil
	}
	return choice, diag.Diagnostics{gdiag(d, CodeAll2All, diag.Warning, "vllm.all2all_backend",
		why+"; expect much slower MoE layers than DeepEP over RDMA",
		"set hardware.network.inter_node.gpu_direct_rdma: true if the NICs support IBGDA (mlx5)")}
}

// AutoContext builds the inputs of vllm's auto backend rule from a spec.
func AutoContext(d *spec.Deployment, multiNode bool) vllm.AutoContext {
	n := d.Hardware.Network.InterNode
	return vllm.AutoContext{
		DP: d.Parallelism.Data, EP: d.Parallelism.Expert, MultiNode: multiNode,
		GPUDirectRDMA: n.GPUDirectRDMA != nil && *n.GPUDirectRDMA, FabricKind: n.Kind,
		InputTokens: d.Workload.InputTokens, OutputTokens: d.Workload.OutputTokens,
	}
}

// roceNote: DeepEP is tested on InfiniBand and only "theoretically
// compatible" with RoCE (EP deployment docs).
func roceNote(d *spec.Deployment) diag.Diagnostics {
	if d.Hardware.Network.InterNode.Kind != "roce" {
		return nil
	}
	return diag.Diagnostics{gdiag(d, CodeAll2All, diag.Info, "hardware.network.inter_node.kind",
		"DeepEP is tested on InfiniBand and only \"theoretically compatible\" with RoCE; run `vlaunch preflight` on every node to check IBGDA",
		"if DeepEP fails to initialise, set vllm.all2all_backend: allgather_reducescatter")}
}

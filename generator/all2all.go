package generator

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// PrefillHeavyRatio is vllm.PrefillHeavyRatio, kept here for the bundle docs.
const PrefillHeavyRatio = vllm.PrefillHeavyRatio

// planAll2All takes the backend that runs from the resolved deployment
// (resolve applies the spec, `auto`, the user's VLLM_ALL2ALL_BACKEND and
// vLLM's precedence between flag and variable) and adds the generator's
// notes: a backend set where no all-to-all runs, and what `auto` picked
// across nodes.
func planAll2All(r *resolve.Deployment, p *Plan) diag.Diagnostics {
	d, a := r.Spec, r.Engine.All2All
	p.All2All, p.All2AllWhy, p.All2AllWritten = a.Value, a.Why, r.Engine.All2AllWritten
	if a.From == resolve.SourceEnv {
		p.All2AllFromEnv, p.Via = true, vllm.ViaEnv.String()
	}
	b, known := r.Release.All2AllBackend(a.Value)
	p.DeepEP = known && b.DeepEP
	switch {
	case a.Value == "":
		if want := r.Engine.All2AllAsked; want != "" && want != "auto" {
			return diag.Diagnostics{gdiag(d, CodeAll2All, diag.Warning, "vllm.all2all_backend",
				fmt.Sprintf("all2all_backend %s has no effect: the all-to-all kernels only run with DP > 1 and expert parallelism", want), "")}
		}
	case a.From != resolve.SourceAuto:
	case p.DeepEP:
		return roceNote(d)
	case p.multiNode() && p.AMD:
		// IBGDA would not bring DeepEP to AMD GPUs (vllm.Backend.CUDAOnly).
		return diag.Diagnostics{gdiag(d, CodeAll2All, diag.Warning, "vllm.all2all_backend",
			a.Why+"; expect slower MoE layers across nodes than with EP kernels over RDMA",
			"set vllm.all2all_backend to a MoRI backend (ROCm's EP kernels) if vLLM "+r.Release.Version.String()+" has one")}
	case p.multiNode():
		return diag.Diagnostics{gdiag(d, CodeAll2All, diag.Warning, "vllm.all2all_backend",
			a.Why+"; expect much slower MoE layers than DeepEP over RDMA",
			"set hardware.network.inter_node.gpu_direct_rdma: true if the NICs support IBGDA (mlx5)")}
	}
	return nil
}

// roceNote: DeepEP is tested on InfiniBand and only "theoretically
// compatible" with RoCE (EP deployment docs).
func roceNote(d *spec.Deployment) diag.Diagnostics {
	if d.Hardware.Network.InterNode.Kind != "roce" {
		return nil
	}
	return diag.Diagnostics{gdiag(d, CodeAll2All, diag.Info, "hardware.network.inter_node.kind",
		"DeepEP is tested on InfiniBand and only \"theoretically compatible\" with RoCE; run `vlaunch preflight` on every node to check IBGDA",
		"if DeepEP fails to initialise, set vllm.all2all_backend: "+vllm.BackendAllgatherReducescatter)}
}

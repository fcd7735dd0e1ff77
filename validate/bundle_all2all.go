package validate

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// All2AllNotes is what the generator says of the all-to-all backend that
// runs (resolve applies the spec, `auto`, VLLM_ALL2ALL_BACKEND and vLLM's
// precedence), GEN004: a backend set where no all-to-all runs, what `auto`
// picked across nodes, and RoCENotes. multiNode is whether one replica
// spans nodes, as the caller placed it. r must be assembled. validate
// reports it for the spec's layout (checkBundle, multiNode from the same
// placement the generator uses), so validate, generate and plan say the
// same of a spec (newuser40 finding 10).
func All2AllNotes(r *resolve.Deployment, multiNode bool) diag.Diagnostics {
	if r == nil || r.Spec == nil {
		return nil
	}
	d, a := r.Spec, r.Engine.All2All
	b, known := r.Release.All2AllBackend(a.Value)
	deepEP := known && b.DeepEP
	amd := r.GPU != nil && r.GPU.Vendor == "amd"
	var ds diag.Diagnostics
	switch {
	case a.Value == "":
		if want := r.Engine.All2AllAsked; want != "" && want != "auto" {
			ds = append(ds, bundleDiag(d, codes.GenAll2All, diag.Warning, "vllm.all2all_backend",
				fmt.Sprintf("all2all_backend %s has no effect: the all-to-all kernels only run with DP > 1 and expert parallelism", want), ""))
		}
	case a.From != resolve.SourceAuto:
	case deepEP: // what there is to say is RoCENotes', below
	case multiNode && amd:
		// IBGDA would not bring DeepEP to AMD GPUs (vllm.Backend.CUDAOnly).
		ds = append(ds, bundleDiag(d, codes.GenAll2All, diag.Warning, "vllm.all2all_backend",
			a.Why+"; expect slower MoE layers across nodes than with EP kernels over RDMA",
			"set vllm.all2all_backend to a MoRI backend (ROCm's EP kernels) if vLLM "+r.Release.Version.String()+" has one"))
	case multiNode:
		ds = append(ds, bundleDiag(d, codes.GenAll2All, diag.Warning, "vllm.all2all_backend",
			a.Why+"; expect much slower MoE layers than DeepEP over RDMA",
			"set hardware.network.inter_node.gpu_direct_rdma: true if the NICs support IBGDA (mlx5)"))
	}
	return append(ds, RoCENotes(r, multiNode)...)
}

// RoCENotes is the one decision on what DeepEP over a RoCE fabric warrants
// saying (GEN004): that `auto` picked DeepEP, which is only "theoretically
// compatible" with RoCE, and a DeepEP bundle across nodes without
// gid_index. validate reports it for the spec's layout (checkBundle) and the
// generator for every plan it makes (All2AllNotes), so the two say the same
// of a spec: validate printed neither line (verify39).
func RoCENotes(r *resolve.Deployment, multiNode bool) diag.Diagnostics {
	if r == nil || r.Spec == nil {
		return nil
	}
	d, a := r.Spec, r.Engine.All2All
	b, known := r.Release.All2AllBackend(a.Value)
	if a.Value == "" || !known || !b.DeepEP {
		return nil
	}
	var ds diag.Diagnostics
	if a.From == resolve.SourceAuto {
		ds = append(ds, roceNote(d)...)
	}
	if multiNode {
		ds = append(ds, gidNote(d)...)
	}
	return ds
}

// roceNote: DeepEP is tested on InfiniBand and only "theoretically
// compatible" with RoCE (EP deployment docs).
func roceNote(d *spec.Deployment) diag.Diagnostics {
	if d.Hardware.Network.InterNode.Kind != "roce" {
		return nil
	}
	return diag.Diagnostics{bundleDiag(d, codes.GenAll2All, diag.Info, "hardware.network.inter_node.kind",
		"DeepEP is tested on InfiniBand and only \"theoretically compatible\" with RoCE; run `vlaunch preflight` on every node to check IBGDA",
		"if DeepEP fails to initialise, set vllm.all2all_backend: "+vllm.BackendAllgatherReducescatter)}
}

// gidNote: without gid_index the scripts set no GID index. NCCL then picks
// the RoCE v2 GID itself (NCCL_IB_GID_INDEX defaults to -1, automatic, since
// NCCL 2.21), so forcing one (index 3 was once assumed) only breaks hosts
// whose table differs. NVSHMEM, which DeepEP's internode kernels use, takes
// NVSHMEM_IB_GID_INDEX; vlaunch has not verified that it searches the table,
// so a DeepEP bundle over RoCE asks for the index preflight reports.
func gidNote(d *spec.Deployment) diag.Diagnostics {
	if d.Hardware.Network.InterNode.Kind != "roce" || d.Hardware.Network.InterNode.GIDIndex != nil {
		return nil
	}
	return diag.Diagnostics{bundleDiag(d, codes.GenAll2All, diag.Warning, "hardware.network.inter_node",
		"RoCE without gid_index: NCCL selects the RoCE v2 GID itself, but NVSHMEM (DeepEP's internode transport) gets no NVSHMEM_IB_GID_INDEX",
		"run `vlaunch preflight SPEC --node NAME --only rdma.gid` on a node and set hardware.network.inter_node.gid_index to the index it reports")}
}

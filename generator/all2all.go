package generator

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// PrefillHeavyRatio is the assumption behind `all2all_backend: auto`: a
// workload counts as prefill-dominated when its prompts are at least this
// many times longer than its outputs. Prefill processes a prompt's tokens in
// one batched forward pass while decode needs one step per output token, so
// a prompt token costs far less GPU time than an output token; below this
// ratio decode steps dominate and DeepEP's low-latency (CUDA-graph friendly)
// kernels are the better fit.
const PrefillHeavyRatio = 8

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

// autoAll2All picks DeepEP across nodes with GPU-initiated RDMA, and the
// NCCL-based backend otherwise.
func autoAll2All(d *spec.Deployment, r vllm.Release, multiNode bool) (all2allChoice, diag.Diagnostics) {
	rdma := d.Hardware.Network.InterNode.GPUDirectRDMA != nil && *d.Hardware.Network.InterNode.GPUDirectRDMA
	if multiNode && rdma {
		w := d.Workload
		if w.OutputTokens > 0 && w.InputTokens >= PrefillHeavyRatio*w.OutputTokens {
			return all2allChoice{Backend: vllm.BackendDeepEPHighThroughput, Why: fmt.Sprintf(
				"auto: multi-node with GPU-initiated RDMA, prefill-dominated (input %d >= %d x output %d)", w.InputTokens, PrefillHeavyRatio, w.OutputTokens)}, roceNote(d)
		}
		return all2allChoice{Backend: vllm.BackendDeepEPLowLatency, Why: fmt.Sprintf(
			"auto: multi-node with GPU-initiated RDMA, decode-dominated (input %d < %d x output %d)", w.InputTokens, PrefillHeavyRatio, w.OutputTokens)}, roceNote(d)
	}
	fallback := vllm.BackendAllgatherReducescatter
	if _, ok := r.All2AllBackend(fallback); !ok {
		fallback = vllm.BackendNaive
	}
	if !multiNode {
		return all2allChoice{Backend: fallback, Why: "auto: single node, NCCL-based backend"}, nil
	}
	why := fmt.Sprintf("auto: the inter-node fabric (%s) has no GPU-initiated RDMA, so DeepEP cannot run; %s works over TCP/Ethernet",
		kindOr(d.Hardware.Network.InterNode.Kind), fallback)
	return all2allChoice{Backend: fallback, Why: why}, diag.Diagnostics{gdiag(d, CodeAll2All, diag.Warning, "vllm.all2all_backend",
		why+"; expect much slower MoE layers than DeepEP over RDMA",
		"set hardware.network.inter_node.gpu_direct_rdma: true if the NICs support IBGDA (mlx5)")}
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

func kindOr(k string) string {
	if k == "" {
		return "unspecified"
	}
	return k
}

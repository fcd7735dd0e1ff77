package vllm

import "fmt"

// PrefillHeavyRatio is the assumption behind `all2all_backend: auto`: a
// workload counts as prefill-dominated when its prompts are at least this
// many times longer than its outputs. Prefill processes a prompt's tokens in
// one batched forward pass while decode needs one step per output token, so
// a prompt token costs far less GPU time than an output token; below this
// ratio decode steps dominate, where vLLM's EP guide points at DeepEP's
// low-latency (CUDA-graph friendly) kernels. It is a rule of thumb, not a
// comparison of modelled step times: check's alternatives line and EST201
// rate the other backends, and may rate one faster (qa41 D7).
const PrefillHeavyRatio = 8

// ruleWhy ends the colocated DeepEP choice's reason: what the choice is (a
// rule), so the reason does not read as a speed comparison.
const ruleWhy = "; vLLM's EP-guide rule, not a modelled speed comparison"

// AutoContext is what the automatic all-to-all choice depends on.
type AutoContext struct {
	// DP and EP: the all2all kernels only run with DP > 1 and EP on.
	DP int
	EP bool
	// MultiNode is true when the EP group spans more than one node.
	MultiNode bool
	// GPUDirectRDMA says the NICs support GPU-initiated RDMA (IBGDA on mlx5),
	// which DeepEP's internode kernels need.
	GPUDirectRDMA bool
	// FabricKind is the inter-node fabric (infiniband | roce | ethernet).
	FabricKind                string
	InputTokens, OutputTokens int
	// AMD: the GPUs are AMD's, where the NVSHMEM-based backends do not run
	// (Backend.CUDAOnly).
	AMD bool
	// Pool is the P/D pool the engines serve ("prefill" or "decode"; ""
	// colocated). A pool runs only its role's steps, so the workload's
	// input:output ratio says nothing about its kernels' fit.
	Pool string
}

// P/D pool names as AutoContext.Pool takes them (spec.RolePrefill and
// spec.RoleDecode; vllm does not import spec).
const (
	PoolPrefill = "prefill"
	PoolDecode  = "decode"
)

// AutoAll2All resolves `all2all_backend: auto` for the release: nothing when
// the kernels do not run; DeepEP across nodes with GPU-initiated RDMA
// (per vLLM's EP deployment guide, docs/serving/expert_parallel_deployment.md
// "Disaggregated Serving": high-throughput on a P/D prefill pool, low-latency
// on a decode pool; colocated, by the workload's input:output ratio);
// otherwise the NCCL-based backend the release has. It is a rule, not a
// measurement: it does not compare modelled step times (check's
// alternatives line does), and its reason says so. It is the one rule the generator and the estimator share, so
// `vlaunch check` predicts the backend `vlaunch generate` emits.
func (r Release) AutoAll2All(c AutoContext) (backend, why string) {
	if c.DP <= 1 || !c.EP {
		return "", "no all-to-all: the kernels only run with DP > 1 and expert parallelism"
	}
	if c.MultiNode && c.GPUDirectRDMA && !c.AMD && r.hasBackend(BackendDeepEPLowLatency) && r.hasBackend(BackendDeepEPHighThroughput) {
		switch c.Pool {
		case PoolPrefill:
			return BackendDeepEPHighThroughput, "auto: multi-node with GPU-initiated RDMA, prefill pool (prefill-only steps; vLLM's EP guide pairs P/D prefill with high-throughput kernels)"
		case PoolDecode:
			return BackendDeepEPLowLatency, "auto: multi-node with GPU-initiated RDMA, decode pool (decode-only steps; vLLM's EP guide pairs P/D decode with low-latency kernels)"
		}
		if c.OutputTokens > 0 && c.InputTokens >= PrefillHeavyRatio*c.OutputTokens {
			return BackendDeepEPHighThroughput, fmt.Sprintf(
				"auto: multi-node with GPU-initiated RDMA, prefill-dominated (input %d >= %d x output %d)"+ruleWhy, c.InputTokens, PrefillHeavyRatio, c.OutputTokens)
		}
		return BackendDeepEPLowLatency, fmt.Sprintf(
			"auto: multi-node with GPU-initiated RDMA, decode-dominated (input %d < %d x output %d)"+ruleWhy, c.InputTokens, PrefillHeavyRatio, c.OutputTokens)
	}
	fallback := BackendAllgatherReducescatter
	if !r.hasBackend(fallback) {
		fallback = BackendNaive
	}
	if _, ok := r.All2AllBackend(fallback); !ok {
		// Before the backends existed there is nothing to select.
		return "", fmt.Sprintf("vLLM %s predates the selectable all-to-all backends; nothing to select", r.Version)
	}
	if c.AMD && c.MultiNode {
		return fallback, fmt.Sprintf("auto: AMD GPUs, where DeepEP (built on NVIDIA's NVSHMEM) does not run: %s; a MoRI backend (ROCm's EP kernels) is chosen only when the spec names it", fallback)
	}
	if c.MultiNode && c.GPUDirectRDMA {
		return fallback, fmt.Sprintf("auto: vLLM %s has no confirmed DeepEP backend; %s", r.Version, fallback)
	}
	if !c.MultiNode {
		return fallback, "auto: single node, NCCL-based backend"
	}
	kind := c.FabricKind
	if kind == "" {
		kind = "unspecified"
	}
	return fallback, fmt.Sprintf("auto: the inter-node fabric (%s) has no GPU-initiated RDMA, so DeepEP cannot run; %s works over TCP/Ethernet", kind, fallback)
}

// hasBackend reports whether a source confirms the backend in this release:
// auto only picks what the release certainly has.
func (r Release) hasBackend(name string) bool {
	b, ok := r.All2AllBackend(name)
	return ok && b.Certain(r.Version)
}

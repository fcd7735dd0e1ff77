package vllm

// Which checkpoints' routed experts vLLM runs through Marlin's fused MoE
// (fused_marlin_moe), and how that call sizes its caches.
//
// Selection (NVIDIA only: check_moe_marlin_supports_layer returns False on
// ROCm; MarlinExpertsBase._supports_current_device asks compute capability
// 8.0):
//
//   - Weight-only INT4 experts (compressed-tensors W4A16 pack-quantized,
//     GPTQ, AWQ): CompressedTensorsMoEMethod.get_moe_method "prefers the
//     MarlinMoE kernel when it is supported" (docs.vllm.ai v0.10.1.1
//     compressed_tensors_moe) and returns CompressedTensorsWNA16MarlinMoEMethod
//     when check_moe_marlin_supports_layer holds — hidden_size % 128 == 0,
//     intermediate_size_per_partition % max(64, group_size) == 0, group_size
//     in {-1, 32, 64, 128}, no apply_router_weight_on_input (marlin_utils.py,
//     stored vllm-project/vllm copy, code search id 153060555) — and
//     CompressedTensorsWNA16MoEMethod (Triton) otherwise. A later
//     compressed_tensors_moe.py (@003a1930) reads VLLM_WNA16_MOE_BACKEND
//     (cutlass on SM90 for group sizes % 64, marlin, triton); its first
//     release is not pinned, so a spec that sets it is read as unknown.
//   - MXFP4 experts: where MXFP4MoEBackend picks Marlin (facts_mxfp4_moe.go);
//     Mxfp4MoEMethod.apply then calls fused_marlin_moe without caches too
//     (mxfp4.py stored copy of the 0.11 era, code search id 33692451; the
//     width per GPU rounded up to 128 there, which callers may ignore).
//   - FP8 on GPUs without FP8 tensor cores (SM 8.0/8.6: Marlin; 8.9 native)
//     and NVFP4 below Blackwell also fall back to Marlin; the catalog has no
//     minor compute capability and the NVFP4 fallback was not read, so both
//     are unknown here.
//
// Cache sizes: the method's apply calls fused_marlin_moe(x, …) with no
// caches (compressed_tensors_moe.py stored copy, code search id 156772300;
// a later copy, id 54644565975, alike), and _fused_marlin_moe then allocates
// intermediate_cache13 of M × top-k × max(2N, K) elements (the gate/up
// output, later reused for the down output) and intermediate_cache2 of
// M × top-k × N (the activation) with torch.empty for all M tokens of the
// call (fused_marlin_moe.py @00a130a0), freed when the call returns; the
// summed output is one M × K tensor more. No VLLM_FUSED_MOE_CHUNK_SIZE
// chunking (that is fused_experts' Triton path) and no buffer shared across
// layers (the modular kernel's): 0.9.2's fused_marlin_moe takes no cache
// arguments at all (docs.vllm.ai v0.9.2 fused_marlin_moe signature), so it
// allocates its own. With an all-to-all backend the method runs as the
// modular kernel's MarlinExperts instead (select_gemm_impl; supports_chunking
// True, workspace_shapes from the shared buffers @00a130a0): not this path.
const srcMarlinMoE = "vllm/model_executor/layers/fused_moe/fused_marlin_moe.py fused_marlin_moe/_fused_marlin_moe @00a130a0 (per-call torch.empty caches " +
	"M×top-k×max(2N,K) and M×top-k×N; MarlinExperts.supports_chunking True, workspace_shapes); docs.vllm.ai v0.9.2 fused_marlin_moe (no cache arguments); " +
	"compressed_tensors_moe.py get_moe_method (docs.vllm.ai v0.10.1.1: Marlin preferred when supported; @003a1930: VLLM_WNA16_MOE_BACKEND) and " +
	"CompressedTensorsWNA16MarlinMoEMethod.apply (stored copies, code search ids 156772300, 54644565975: fused_marlin_moe without caches); " +
	"quantization/mxfp4.py Mxfp4MoEMethod.apply on MARLIN (stored copy, id 33692451: fused_marlin_moe without caches); " +
	"quantization/utils/marlin_utils.py check_moe_marlin_supports_layer (stored copy, id 153060555)"

// Releases where the INT4 Marlin MoE method is the default when the layer
// fits (seen in the v0.10.1.1 documentation; earlier ones not read), and
// where fused_marlin_moe allocates its own whole-batch caches per call
// (0.9.2's signature has no cache arguments; the newest read still
// allocates them when none are passed).
var (
	marlinWNA16Default    = Span{Since: vPre, Confirmed: v0101}
	marlinDirectPerCall   = Span{Since: vPre, Confirmed: v092}
	marlinMoEMinSMMajor   = 8
	marlinMoEGroupSizes   = map[int]bool{-1: true, 0: true, 32: true, 64: true, 128: true}
	wna16MoEBackendEnvVar = "VLLM_WNA16_MOE_BACKEND"
)

// MarlinMoEQuery is what decides whether a layer's routed experts run
// through fused_marlin_moe.
type MarlinMoEQuery struct {
	// ExpertFormat is the routed experts' stored format: "int4" (weight-only
	// INT4: compressed-tensors W4A16, GPTQ, AWQ), "mxfp4", "fp8", "nvfp4",
	// or "" / "bf16" (unquantized).
	ExpertFormat string
	// GroupSize is the INT4 values per scale (0 or -1: per channel).
	GroupSize int
	// HiddenSize and IntermediatePerGPU are the layer's K and N
	// (moe_intermediate_size over the TP shards).
	HiddenSize, IntermediatePerGPU int
	// NVIDIA is false for other vendors (Marlin is CUDA only); SMMajor is
	// the compute capability's major version (0: unknown).
	NVIDIA  bool
	SMMajor int
	// All2All: an all-to-all backend is in effect (DP+EP): the method runs
	// as the modular kernel's MarlinExperts, not the direct call.
	All2All bool
	// Env is the engine's environment (VLLM_MXFP4_USE_MARLIN,
	// VLLM_WNA16_MOE_BACKEND, …); nil: none set.
	Env map[string]string
}

// MarlinMoEPath says whether release r runs the experts through Marlin's
// fused MoE and whether that call allocates its caches per call for the
// whole batch.
type MarlinMoEPath struct {
	// Runs: the experts run through fused_marlin_moe.
	Runs Presence
	// WholeBatch: fused_marlin_moe allocates intermediate_cache13 (M ×
	// top-k × max(2N, K)) and intermediate_cache2 (M × top-k × N) itself for
	// all M tokens of the call and frees them on return (no chunking, no
	// shared buffer). Absent unless Runs is.
	WholeBatch Presence
	// Why says which rule decided, for memory notes.
	Why    string
	Source string
}

// MarlinMoE reports whether release r runs the routed experts q describes
// through fused_marlin_moe, and how it sizes that call's caches.
func (r Release) MarlinMoE(q MarlinMoEQuery) MarlinMoEPath {
	p := MarlinMoEPath{Source: srcMarlinMoE}
	switch {
	case !q.NVIDIA:
		p.Why = "Marlin is CUDA only (check_moe_marlin_supports_layer is False on ROCm)"
		return p
	case q.SMMajor == 0:
		p.Runs, p.Why = Maybe, "compute capability unknown"
	case q.SMMajor < marlinMoEMinSMMajor:
		p.Why = "Marlin needs compute capability 8.0"
		return p
	}
	switch q.ExpertFormat {
	case "int4":
		if why := marlinINT4Misfit(q); why != "" {
			p.Runs, p.Why = Absent, why+": CompressedTensorsWNA16MoEMethod (Triton)"
			return p
		}
		if p.Runs != Maybe {
			p.Runs, p.Why = marlinWNA16Default.In(r.Version), "INT4 weight-only experts: CompressedTensorsWNA16MarlinMoEMethod (GPTQ/AWQ Marlin MoE alike)"
		}
		if v, ok := q.Env[wna16MoEBackendEnvVar]; ok && v != "marlin" {
			p.Runs, p.Why = Maybe, wna16MoEBackendEnvVar+"="+v+" (first release not pinned)"
		}
	case "mxfp4":
		if p.Runs == Maybe {
			break
		}
		b := r.MXFP4MoEBackend(q.SMMajor, q.Env)
		switch {
		case b.Kernel == MXFP4MoEMarlin && b.Verified:
			p.Runs, p.Why = Present, "MXFP4 experts on Marlin (MXFP4MoEBackend)"
		case b.Kernel == MXFP4MoEUnknown:
			p.Runs, p.Why = Maybe, "MXFP4 MoE kernel not pinned for this release and GPU"
		default:
			p.Runs, p.Why = Absent, "MXFP4 experts on "+string(b.Kernel)
		}
	case "fp8", "nvfp4":
		p.Runs, p.Why = Maybe, q.ExpertFormat+" experts: Marlin fallback on GPUs without native support not read"
	default:
		p.Runs, p.Why = Absent, "unquantized experts: Triton fused_experts"
	}
	if p.Runs == Absent {
		return p
	}
	if q.All2All {
		p.WholeBatch = Maybe // MarlinExperts through the modular kernel: chunked, shared workspaces
		return p
	}
	p.WholeBatch = marlinDirectPerCall.In(r.Version)
	if p.Runs == Maybe && p.WholeBatch == Present {
		p.WholeBatch = Maybe
	}
	return p
}

// marlinINT4Misfit is why check_moe_marlin_supports_layer rejects the
// layer ("" when it fits).
func marlinINT4Misfit(q MarlinMoEQuery) string {
	g := q.GroupSize
	switch {
	case !marlinMoEGroupSizes[g]:
		return "group size not one of Marlin MoE's (-1, 32, 64, 128)"
	case q.HiddenSize%128 != 0:
		return "hidden_size not a multiple of 128"
	case q.IntermediatePerGPU%max(64, g) != 0:
		return "intermediate size per GPU not a multiple of max(64, group size)"
	}
	return ""
}

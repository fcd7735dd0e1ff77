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

// srcMarlinSumAfterCaches: where fused_marlin_moe allocates the summed
// output relative to its caches, read at vLLM's release tags (fork snapshot
// github.com/kzwrime/vllm, upstream tags). Up to v0.11.0 one function
// allocates intermediate_cache13 and intermediate_cache2, runs both GEMMs and
// then output = torch.empty_like(hidden_states) while cache2 is still one of
// its locals: the three coexist. From v0.11.1 the GEMMs moved into
// _fused_marlin_moe, which allocates cache2 as a local and returns only
// cache3 (a view of cache13); fused_marlin_moe allocates the output after
// that call returns, when cache2 is already back in PyTorch's allocator, so
// the allocated-bytes peak is cache13 + max(cache2, output), not their sum.
// Read at v0.11.1, v0.11.2, v0.12.0, v0.13.0, v0.14.0, v0.14.1, v0.15.0,
// v0.15.1, v0.16.0, v0.17.0, v0.17.1, v0.18.0, v0.18.1, v0.19.0, v0.19.1
// (compressed_tensors_moe.py CompressedTensorsWNA16MarlinMoEMethod.apply
// calls fused_marlin_moe directly at each of them) and at main 3f5a4b64
// (2025-11-05, vllm#28228's Kimi-Linear build). At v0.20.0 the method no
// longer calls fused_marlin_moe itself, and from v0.21.0 the file moved:
// not read, so unknown there.
const srcMarlinSumAfterCaches = "vllm/model_executor/layers/fused_moe/fused_marlin_moe.py fused_marlin_moe at vLLM's tags (fork snapshot github.com/kzwrime/vllm): " +
	"v0.9.2 (a5dd03c1e)-v0.11.0 (b8b302cde) one function, output = torch.empty_like(hidden_states) after both GEMMs with intermediate_cache2 still a local; " +
	"v0.11.1 (439368496)-v0.19.1 (b1388b1fb) and main 3f5a4b64: moe_output = _fused_marlin_moe(...) (cache2 a local of the helper, freed on return), then output = torch.empty_like(hidden_states); " +
	"CompressedTensorsWNA16MarlinMoEMethod.apply returns fused_marlin_moe(...) at each of v0.11.1-v0.19.1; v0.20.0+ not read on this point"

// marlinSumAfterCachesFrom..marlinSumAfterCachesRead: the releases read where
// the summed output comes after cache2 is freed (Present), after which
// the path is unknown (Maybe); Absent before.
var (
	marlinSumAfterCachesFrom = v0111
	marlinSumAfterCachesRead = v0200
)

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
	// SumAfterCaches: the summed output (M × hidden) is allocated only after
	// the helper holding intermediate_cache2 has returned, so the call's
	// peak is cache13 + max(cache2, output) (0.11.1-0.19.1); Absent where
	// the output coexists with both caches (up to 0.11.0); Maybe where not
	// read. Meaningful only where WholeBatch is Present.
	SumAfterCaches Presence
	// SumSource cites SumAfterCaches.
	SumSource string
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
	p.SumAfterCaches, p.SumSource = marlinSumAfterCaches(r.Version), srcMarlinSumAfterCaches
	return p
}

// marlinSumAfterCaches is whether release v's fused_marlin_moe allocates
// the summed output after freeing intermediate_cache2
// (srcMarlinSumAfterCaches).
func marlinSumAfterCaches(v Version) Presence {
	switch {
	case v.Less(marlinSumAfterCachesFrom):
		return Absent
	case v.Less(marlinSumAfterCachesRead):
		return Present
	default:
		return Maybe
	}
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

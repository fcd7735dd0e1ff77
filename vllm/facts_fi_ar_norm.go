package vllm

import "fmt"

// The FlashInfer all-reduce + RMSNorm workspace that MiniMax-M3's eager
// decoder layers make, and when vLLM's profile sees it.
//
// MiniMaxM3DecoderLayer.forward (vllm/models/minimax_m3/nvidia/model.py at
// 58d6a6e6, the build of the MiniMax-M3 start-up log, and at v0.24.0) ends
// its attention with fused_allreduce_gemma_rms_norm, unconditionally (the
// attention's o_proj has reduce_results=False). That helper
// (vllm/model_executor/layers/fused_allreduce_gemma_rms_norm.py
// _can_use_flashinfer) takes FlashInfer's fused path only for a batch of at
// most max_token_num = FI_ALLREDUCE_FUSION_MAX_SIZE_MB[SM][TP] MiB /
// (hidden × 2 B) tokens (vllm/compilation/passes/fusion/allreduce_rms_fusion.py;
// B200, TP 2: 64 MiB / (6,144 × 2) = 5,461, the log's
// compile_ranges_endpoints [5461, 32768]), and creates the workspace on its
// first such call (vllm/distributed/device_communicators/flashinfer_all_reduce.py
// get_fi_ar_workspace; trtllm on one node, mnnvl across nodes). FlashInfer
// 0.6.12 (requirements/cuda.txt at both) sizes the trtllm workspace
// (flashinfer/comm/trtllm_ar.py trtllm_create_ipc_workspace_for_all_reduce_fusion,
// use_symm_dev_mem from allreduce.py's TRTLLMAllReduceFusionWorkspace) as
// three buffers per rank: TP × max_token_num × hidden × 2 B, TP × 256 × 4 B
// of flags, and 3 × TP × max_token_num × hidden × 2 B of Lamport buffers,
// each from PyTorch's symmetric memory (torch.distributed._symmetric_memory
// empty: CUDASymmetricMemoryAllocator::alloc, cuMemCreate rounded up to the
// 2 MiB allocation granularity with a signal pad of a few KiB) — outside
// PyTorch's caching allocator.
//
// When: the profile run's dummy batch is max_num_batched_tokens tokens; if
// that is above max_token_num the fused path is skipped there and the
// workspace is made in the warm-up of the first graph captured by
// profile_cudagraph_memory (gpu_model_runner.py; the log prints "Initialized
// FlashInfer Allreduce norm fusion workspace" right after "Profiling CUDA
// graph memory"). Worker.determine_available_memory (gpu_worker.py at
// 58d6a6e6 and v0.24.0) runs profile_cudagraph_memory inside
// memory_profiling, whose non-torch growth is measured after it, and the
// estimate is mem_get_info's drop across that first capture: the workspace is
// subtracted twice, once as memory outside PyTorch and once inside "Estimated
// CUDA graph memory".
const srcFIARNorm = "vllm/models/minimax_m3/nvidia/model.py MiniMaxM3DecoderLayer.forward (fused_allreduce_gemma_rms_norm after attention) @58d6a6e6 and v0.24.0; " +
	"vllm/model_executor/layers/fused_allreduce_gemma_rms_norm.py _max_token_num/_can_use_flashinfer; " +
	"vllm/compilation/passes/fusion/allreduce_rms_fusion.py FI_ALLREDUCE_FUSION_MAX_SIZE_MB; " +
	"vllm/distributed/device_communicators/flashinfer_all_reduce.py get_fi_ar_workspace/_resolve_fi_ar_backend; " +
	"flashinfer v0.6.12 flashinfer/comm/trtllm_ar.py trtllm_create_ipc_workspace_for_all_reduce_fusion (buffer, flags, 3 Lamport buffers; torch symmetric memory); " +
	"vllm/v1/worker/gpu_worker.py determine_available_memory and gpu_model_runner.py profile_cudagraph_memory @58d6a6e6 and v0.24.0"

// fiARNormEager: releases whose MiniMax-M3 decoder layers call
// fused_allreduce_gemma_rms_norm (v0.24.0, the first release with the
// model, PR #45381; later releases not read, nothing shows it gone).
var fiARNormEager = Span{Since: v0240}

// fiARFusionMaxSizeMB is FI_ALLREDUCE_FUSION_MAX_SIZE_MB: compute capability
// × 10 → TP size → MiB (allreduce_rms_fusion.py @58d6a6e6).
var fiARFusionMaxSizeMB = map[int]map[int]float64{
	90:  {2: 64, 4: 2, 8: 0.5},
	100: {2: 64, 4: 32, 8: 1, 16: 64},
	103: {2: 64, 4: 64, 8: 2, 16: 64},
}

// Sizes from FlashInfer's trtllm workspace and PyTorch's symmetric memory.
const (
	fiARBarrierFlags  = 256                       // BarrierFlagCount
	fiARMaxCommSize   = 2147483647 &^ (1<<21 - 1) // MAX_COMM_SIZE: the Lamport buffer's cap
	symmMemGranuleB   = 2 << 20                   // cuMemCreate's recommended granularity
	fiARActivationB   = 2                         // BF16/FP16, the only dtypes the fused path takes
	fiARMiB           = 1 << 20                   // MiB as vLLM's _max_token_num counts it
	fiARLamportCopies = 3                         // lamport_buffer_size = 3 × lamport_comm_size
	fiARModelMiniMax3 = "minimax_m3"              // the model whose layers call the helper
)

// FIARNormQuery is what decides the workspace: the model, its layout and
// the GPU.
type FIARNormQuery struct {
	// Model is the text model's type ("minimax_m3" for MiniMax-M3 and its
	// multimodal wrapper).
	Model string
	// TP is the tensor-parallel size; OneNode whether the deployment's
	// world spans one node (get_node_count: trtllm on one, mnnvl beyond).
	TP      int
	OneNode bool
	// NVIDIA, and SMMajor the compute capability's major version; NVLink
	// whether the GPUs are joined by NVLink (the logs read are NVLink
	// systems; over PCIe alone the workspace's IPC path was not read).
	NVIDIA  bool
	SMMajor int
	NVLink  bool
	// Hidden is the model's hidden size.
	Hidden int
}

// FIARNormWorkspace is the workspace a release makes for the query.
type FIARNormWorkspace struct {
	// In is whether the release makes it; Why says why not, or the backend.
	In  Presence
	Why string
	// MaxTokens is the largest batch the fused path takes (a larger one
	// runs a plain all-reduce and RMSNorm and does not make the workspace).
	MaxTokens int
	// Bytes is its size on each GPU, outside PyTorch's allocator; Formula
	// how it is made up.
	Bytes   float64
	Formula string
	Source  string
}

// EagerFIARNormWorkspace returns the FlashInfer all-reduce + RMSNorm
// workspace that the release's eager model code makes for the query (In
// Absent, with Why, where it makes none or its size is not known).
func (r Release) EagerFIARNormWorkspace(q FIARNormQuery) FIARNormWorkspace {
	w := FIARNormWorkspace{Source: srcFIARNorm}
	switch {
	case q.Model != fiARModelMiniMax3:
		w.Why = "only MiniMax-M3's decoder layers call fused_allreduce_gemma_rms_norm"
		return w
	case q.TP < 2:
		w.Why = "TP 1: no all-reduce"
		return w
	case !q.NVIDIA:
		w.Why = "FlashInfer's fused all-reduce is CUDA only"
		return w
	case fiARNormEager.In(r.Version) == Absent:
		w.Why = "the release's MiniMax-M3 layers do not call fused_allreduce_gemma_rms_norm"
		return w
	case !q.NVLink:
		w.Why = "GPUs not joined by NVLink: the workspace's path there was not read"
		return w
	case !q.OneNode:
		w.Why = "TP across nodes: the mnnvl workspace, not sized"
		return w
	}
	mb, why := fiARMaxSizeMB(q.SMMajor, q.TP)
	if why != "" || q.Hidden <= 0 {
		w.Why = why
		return w
	}
	tok := int(mb*fiARMiB) / (q.Hidden * fiARActivationB)
	comm := int64(q.TP) * int64(tok) * int64(q.Hidden) * fiARActivationB
	lamport := fiARLamportCopies * min(comm, fiARMaxCommSize)
	flags := int64(q.TP) * fiARBarrierFlags * 4
	w.In, w.Why, w.MaxTokens = fiARNormEager.In(r.Version), "trtllm (one node)", tok
	w.Bytes = float64(granules(comm) + granules(flags) + granules(lamport))
	w.Formula = fmt.Sprintf("trtllm: buffer TP %d × %d tokens (%g MiB / (hidden %d × 2 B)) × %d × 2 B + flags + 3 Lamport buffers of the same size, each rounded up to 2 MiB",
		q.TP, tok, mb, q.Hidden, q.Hidden)
	return w
}

// fiARMaxSizeMB looks up FI_ALLREDUCE_FUSION_MAX_SIZE_MB for a compute
// capability known by its major version only: 10 is read where 10.0 and
// 10.3 agree.
func fiARMaxSizeMB(smMajor, tp int) (float64, string) {
	if smMajor == 10 {
		a, okA := fiARFusionMaxSizeMB[100][tp]
		b, okB := fiARFusionMaxSizeMB[103][tp]
		switch {
		case !okA && !okB:
			return 0, "no FI_ALLREDUCE_FUSION_MAX_SIZE_MB entry"
		case !okA || !okB || a != b:
			return 0, "compute capability 10.0 and 10.3 differ at this TP; the catalog has no minor version"
		}
		return a, ""
	}
	mb, ok := fiARFusionMaxSizeMB[smMajor*10][tp]
	if !ok {
		return 0, "no FI_ALLREDUCE_FUSION_MAX_SIZE_MB entry"
	}
	return mb, ""
}

// granules is size rounded up to cuMemCreate's 2 MiB granularity.
func granules(size int64) int64 {
	return (size + symmMemGranuleB - 1) / symmMemGranuleB * symmMemGranuleB
}

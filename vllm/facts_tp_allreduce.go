package vllm

// Which kernel runs one tensor-parallel all-reduce, per release, as vLLM
// picks it on NVIDIA GPUs (issue #28: TP 8 decode).
//
// The dispatch (CudaCommunicator.all_reduce, vllm/distributed/
// device_communicators/cuda_communicator.py, read at the v0.11.0 … v0.24.0
// tags in the kzwrime/vllm snapshot, which carries upstream's tags) tries,
// in order: NCCL symmetric memory (only with VLLM_USE_NCCL_SYMM_MEM=1,
// default 0: pynccl_allocator.is_symmetric_memory_enabled), quick reduce
// (ROCm), FlashInfer's standalone all-reduce (from v0.17.0, only with
// VLLM_ALLREDUCE_USE_FLASHINFER=1, default 0: envs.py), the custom
// all-reduce, torch symmetric memory, then NCCL (pynccl).
//
//   - Custom all-reduce (custom_all_reduce.py): world sizes 2, 4, 6, 8; more
//     than 2 GPUs only when fully connected (NVLink); takes a message below
//     its max_size: 8 MiB by default, capped by CUSTOM_ALL_REDUCE_MAX_SIZES
//     [capability][world size] (all_reduce_utils.py) when torch symmetric
//     memory is up (symm_mem_enabled).
//   - Torch symmetric memory (symm_mem.py SymmMemCommunicator): on by
//     default from v0.11.0 (VLLM_ALLREDUCE_USE_SYMM_MEM default "1"; at
//     v0.10.2, the first tag with symm_mem.py, default "0"; absent before);
//     up only where the capability and world size have a
//     SYMM_MEM_ALL_REDUCE_MAX_SIZES entry and the GPUs support multicast
//     (NVSwitch); takes a BF16 message up to that size, with
//     torch.ops.symm_mem.multimem_all_reduce_ on _WORLD_SIZES_MULTIMEM
//     (9.0: 4, 6, 8; 10.0: 6, 8) and two_shot_all_reduce_ otherwise.
//   - Capability 10.3 (B300/GB300) has entries in both tables and in
//     _WORLD_SIZES_MULTIMEM from v0.19.0 (PR #37756, "Add SM 10.3 (B300/
//     GB300) all-reduce communicator tuning"); before it symmetric memory
//     is down there and the custom all-reduce keeps its 8 MiB.
//   - The compilation pass (vllm/compilation/passes/fusion/
//     allreduce_rms_fusion.py AllReduceFusionPass) replaces an all-reduce
//     followed by an RMSNorm (plain or with the residual add) with
//     FlashInfer's fused trtllm all-reduce + RMSNorm
//     (flashinfer_comm.allreduce_fusion, one-shot below
//     _FI_ALLREDUCE_ONE_SHOT_MAX_SIZES_MB) in compiled ranges whose largest
//     batch is at most max_token_num = FI_ALLREDUCE_FUSION_MAX_SIZE_MB
//     [capability][TP] MiB / (hidden × 2 B) (capped by
//     max_num_batched_tokens). -O2, the default optimization level, turns
//     the pass on (fuse_allreduce_rms = enable_allreduce_rms_fusion: TP > 1,
//     CUDA, FlashInfer installed, capability 9.0 or 10.0) from v0.17.0 (PR
//     #34299, commit addac0e65, "[torch.compile] Enable AR+rms fusion by
//     default available for -O2": absent at the v0.16.0 tag, present at
//     v0.17.0); from v0.19.0 the capability test is the 10.x family
//     (is_device_capability_family(100)) and the size table has 10.3. The
//     pass only takes TP 2, 4 and 8 (PassConfig.flashinfer_max_size) and is
//     disabled when the workspace cannot be made (no NVSwitch: "expected on
//     GPUs without NVSwitch"). Its kernel is FlashInfer's trtllm backend on
//     one node: VLLM_FLASHINFER_ALLREDUCE_BACKEND defaults to "trtllm" at
//     v0.17.0 and to "auto" from v0.19.0, which flashinfer_all_reduce.py
//     _resolve_fi_ar_backend turns into trtllm on one node (mnnvl across
//     nodes, "mnnvl has issues with cudagraph", issue #35772).
const srcTPAllReduce = "vllm/distributed/device_communicators/cuda_communicator.py CudaCommunicator.all_reduce, custom_all_reduce.py CustomAllreduce (max_size, should_custom_ar), " +
	"symm_mem.py SymmMemCommunicator (_WORLD_SIZES_MULTIMEM, should_use_symm_mem), all_reduce_utils.py CUSTOM_ALL_REDUCE_MAX_SIZES / SYMM_MEM_ALL_REDUCE_MAX_SIZES, " +
	"envs.py VLLM_ALLREDUCE_USE_SYMM_MEM (default 0 at v0.10.2, 1 from v0.11.0), read at the v0.10.2, v0.11.0 … v0.24.0 tags; SM 10.3 entries from v0.19.0 (PR #37756); " +
	"vllm/compilation/passes/fusion/allreduce_rms_fusion.py AllReduceFusionPass / FI_ALLREDUCE_FUSION_MAX_SIZE_MB and vllm/config/vllm.py enable_allreduce_rms_fusion at -O2 from v0.17.0 (PR #34299, commit addac0e65; absent at v0.16.0), " +
	"trtllm backend on one node (envs.py VLLM_FLASHINFER_ALLREDUCE_BACKEND, flashinfer_all_reduce.py _resolve_fi_ar_backend, v0.17.0 … v0.24.0)"

// TPARKernel names the kernel one TP all-reduce runs with.
type TPARKernel string

// The kernels the dispatch can pick by default.
const (
	// TPARNone: no all-reduce (TP 1).
	TPARNone TPARKernel = ""
	// TPARUnknown: the release's pick was not read for this platform.
	TPARUnknown TPARKernel = "unknown"
	// TPARCustom is vLLM's custom all-reduce (csrc/custom_all_reduce.cuh).
	TPARCustom TPARKernel = "custom"
	// TPARSymmMemMultimem is torch symmetric memory's multimem all-reduce.
	TPARSymmMemMultimem TPARKernel = "symm_mem_multimem"
	// TPARSymmMemTwoShot is torch symmetric memory's two-shot all-reduce.
	TPARSymmMemTwoShot TPARKernel = "symm_mem_two_shot"
	// TPARNCCL is NCCL through pynccl.
	TPARNCCL TPARKernel = "nccl"
	// TPARFlashInferFused is FlashInfer's fused trtllm all-reduce +
	// RMSNorm, put in by the compilation pass (the RMSNorm's own kernel
	// goes).
	TPARFlashInferFused TPARKernel = "flashinfer_allreduce_rmsnorm"
)

// TPARQuery is what decides the kernel of one TP all-reduce.
type TPARQuery struct {
	// TP is the tensor-parallel group's size, inside one host.
	TP int
	// NVIDIA: a CUDA GPU; SM is its compute capability × 10 (80, 90, 100,
	// 103; 0 unknown).
	NVIDIA bool
	SM     int
	// NVSwitch: the group's GPUs are all joined through NVLink switches
	// (fully connected, multicast objects supported).
	NVSwitch bool
	// Compiled: the forward pass runs vLLM's compiled graph at the default
	// -O2 (CUDA graphs on; an eager engine is not read and gets no fusion).
	Compiled bool
	// Bytes is the message: tokens × hidden × 2 B (BF16).
	Bytes float64
	// MaxBatchedTokens and Hidden cap the fused path at
	// max_num_batched_tokens tokens (0: no cap).
	MaxBatchedTokens, Hidden int
}

// TPARChoice is the kernel a release picks for a query and why.
type TPARChoice struct {
	Kernel TPARKernel
	Why    string
	// FusedMaxBytes is the largest message the fused path takes for the
	// query's TP and GPU (0: no fusion in this release or configuration).
	FusedMaxBytes float64
	Source        string
}

// Spans of the release facts above.
var (
	symmMemDefaultOn = Span{Since: v0110}
	arSM103Tuning    = Span{Since: v0190}
	arRMSFusionO2    = Span{Since: v0170}
	arRMSFusion10x   = Span{Since: v0190}
)

// mib is a MiB in bytes.
const mib float64 = 1 << 20

// customARMaxSizes is CUSTOM_ALL_REDUCE_MAX_SIZES (bytes), symmMemMaxSizes
// SYMM_MEM_ALL_REDUCE_MAX_SIZES, by capability × 10 and world size
// (all_reduce_utils.py, the same at v0.11.0 … v0.24.0 for 9.0 and 10.0;
// 10.3 from v0.19.0).
var (
	customARMaxSizes = map[int]map[int]float64{
		90:  {2: 64 * mib, 4: 32 * mib, 6: mib / 2, 8: mib / 4},
		100: {2: 2 * mib, 4: 2 * mib, 6: mib, 8: mib},
		103: {2: 4 * mib, 4: 4 * mib, 6: 8 * mib, 8: 4 * mib},
	}
	symmMemMaxSizes = map[int]map[int]float64{
		90:  {2: 64 * mib, 4: 32 * mib, 6: 64 * mib, 8: 64 * mib},
		100: {2: 8 * mib, 4: 32 * mib, 6: 128 * mib, 8: 128 * mib},
		103: {2: 4 * mib, 4: 32 * mib, 6: 32 * mib, 8: 64 * mib},
	}
	// symmMemMultimem is _WORLD_SIZES_MULTIMEM (symm_mem.py).
	symmMemMultimem = map[int][]int{90: {4, 6, 8}, 100: {6, 8}, 103: {6, 8}}
)

// customARDefaultMax is CustomAllreduce's max_size default, 8 MiB.
const customARDefaultMax float64 = 8 * mib

// TPAllReduce is the kernel the release runs one TP all-reduce of the
// query's message with, by default (no all-reduce environment variable
// set). ROCm is not read here (quick reduce, AITER's fusion).
func (r Release) TPAllReduce(q TPARQuery) TPARChoice {
	c := TPARChoice{Source: srcTPAllReduce}
	switch {
	case q.TP < 2:
		c.Why = "TP 1: no all-reduce"
		return c
	case !q.NVIDIA:
		c.Kernel, c.Why = TPARUnknown, "not CUDA: the ROCm dispatch (quick reduce, AITER fusion) is not read"
		return c
	}
	sm := q.SM
	if sm == 103 && arSM103Tuning.In(r.Version) == Absent {
		sm = 0 // no 10.3 entry in any table before v0.19.0
	}
	c.FusedMaxBytes = r.fusedMax(q)
	if c.FusedMaxBytes > 0 && q.Bytes <= c.FusedMaxBytes {
		c.Kernel, c.Why = TPARFlashInferFused, "the -O2 compilation pass fuses the all-reduce with the next RMSNorm (FlashInfer trtllm, one-shot)"
		return c
	}
	symm := q.NVSwitch && symmMemDefaultOn.In(r.Version) != Absent && symmMemMaxSizes[sm][q.TP] > 0
	caMax := customARDefaultMax
	if symm {
		caMax = min(caMax, customARMaxSizes[sm][q.TP])
	}
	caOK := (q.TP == 2 || q.NVSwitch) && (q.TP == 2 || q.TP == 4 || q.TP == 6 || q.TP == 8)
	switch {
	case caOK && q.Bytes < caMax:
		c.Kernel, c.Why = TPARCustom, "below the custom all-reduce's max size"
	case symm && q.Bytes <= symmMemMaxSizes[sm][q.TP]:
		c.Kernel, c.Why = TPARSymmMemTwoShot, "torch symmetric memory, two-shot at this world size"
		for _, n := range symmMemMultimem[sm] {
			if n == q.TP {
				c.Kernel, c.Why = TPARSymmMemMultimem, "torch symmetric memory, multimem at this world size"
			}
		}
	default:
		c.Kernel, c.Why = TPARNCCL, "above the custom all-reduce's and symmetric memory's sizes"
	}
	return c
}

// fusedMax is the largest message the all-reduce + RMSNorm fusion takes
// for the query in this release (0: the pass is off).
func (r Release) fusedMax(q TPARQuery) float64 {
	if !q.Compiled || !q.NVSwitch || arRMSFusionO2.In(r.Version) == Absent {
		return 0
	}
	switch {
	case q.SM == 90, q.SM == 100:
	case q.SM == 103 && arRMSFusion10x.In(r.Version) != Absent:
	default:
		return 0
	}
	mb, ok := fiARFusionMaxSizeMB[q.SM][q.TP]
	if !ok {
		return 0
	}
	b := mb * mib
	if q.MaxBatchedTokens > 0 && q.Hidden > 0 {
		b = min(b, float64(q.MaxBatchedTokens*q.Hidden*2))
	}
	return b
}

// TorchSymmMemAllReduce reports whether the release's TP all-reduce hands
// messages above the custom all-reduce's cap to torch symmetric memory by
// default (VLLM_ALLREDUCE_USE_SYMM_MEM on: from v0.11.0). Before it the
// custom all-reduce takes everything below 8 MiB.
func (r Release) TorchSymmMemAllReduce() bool {
	return symmMemDefaultOn.In(r.Version) != Absent
}

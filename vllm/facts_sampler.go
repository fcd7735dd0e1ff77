package vllm

import (
	"fmt"
	"strconv"
	"strings"
)

// The profile run's sampler. vLLM sizes the KV cache from the peak of a
// profiling pass that ends with a dummy sampler run over max_num_seqs rows
// (V1 gpu_model_runner.py _dummy_sampler_run; V0's profile_run likewise
// samples with top_p=0.99, top_k=vocab-1). The V1 dummy metadata sets
// temperature 0.5, top_p 0.9, top_k vocab-1 and no per-request generators,
// so TopKTopPSampler filters every row with both top-k and top-p: which
// implementation does that decides the sampler's share of the peak.
//
// Three implementations, by release:
//
//   - PyTorch sort (apply_top_k_top_p, renamed apply_top_k_top_p_pytorch when
//     the Triton kernel came): logits.sort over the whole vocabulary, masks on
//     the sorted copy, a scatter back. The only path of releases before the
//     Triton kernel unless FlashInfer samples (below).
//   - Triton (vllm/v1/sample/ops/topk_topp_triton.py, PR #33538, "Qrita"
//     pivot search): masks the FP32 logits in place with fixed
//     [programs, vocab] buffers (~80 MiB, PR #33538's description).
//     forward_native's apply_top_k_top_p takes it for batches of at least
//     8 rows ("if HAS_TRITON and logits.shape[0] >= 8"), the PyTorch sort
//     below that; PR #54651 (2026-09) later removed the 8-row gate (release
//     not pinned).
//   - FlashInfer (forward_cuda → flashinfer_sample → FlashInfer's
//     top_k_top_p_sampling_from_logits: top_k_mask_logits then softmax, one
//     FP32 copy each). Default when installed in 0.9.0.1 and 0.10.2
//     (VLLM_USE_FLASHINFER_SAMPLER unset counts as "not False"), and the
//     official image ships it (PR #21389); opt-in from PR #26859
//     (2025-10-15; docs v0.11.1: "Users must opt in explicitly via
//     VLLM_USE_FLASHINFER_SAMPLER=1"; still opt-in at the v0.19.0 commit
//     2a69949bd); on by default again from PR #40376 (merged 2026-04-29;
//     the 0.21.0 envs.py defaults the variable to True and TopKTopPSampler
//     falls back quietly where FlashInfer cannot run; 0.20.x not read)
//     (opened 2026-04-20; PR #54651, 2026-09-01: "on CUDA the default sampler
//     is FlashInfer"), first release not pinned.
//
// Not modelled: Model Runner V2 (vllm/v1/worker/gpu/model_runner.py, the
// default for dense models from 0.25), whose _dummy_sampler_run notes that
// "the sampler may skip top_k, top_p, and logprobs" during profiling, so it
// charges at most the kernel path's bytes; and the V0 engine opted into on
// 0.9.x–0.10.x, whose sampler sorts unless VLLM_USE_FLASHINFER_SAMPLER=1.
const srcProfileSampler = "vllm/v1/worker/gpu_model_runner.py _dummy_sampler_run (dummy SamplingMetadata: temperature 0.5, top_p 0.9, " +
	"top_k vocab-1, generators {}); vllm/v1/sample/ops/topk_topp_sampler.py (forward_native → apply_top_k_top_p; " +
	"\"if HAS_TRITON and logits.shape[0] >= 8: return apply_top_k_top_p_triton\"); " +
	"docs.vllm.ai/en/v0.15.0/api/vllm/v1/sample/ops (modules bad_words, logprobs, penalties, topk_topp_sampler: no topk_topp_triton); " +
	"docs.vllm.ai/en/v0.18.0/api/vllm/v1/sample/ops/topk_topp_triton (apply_top_k_top_p_triton); PR #33538 (opened 2026-02-02, merged: " +
	"the Triton kernel); 0.15.1, 0.16.0 and 0.17.x not read (unverified); PR #54651 (2026-09-01: the 8-row gate removed, release unverified); " +
	"docs.vllm.ai/en/v0.9.0.1 and v0.10.2 api/vllm/v1/sample/ops/topk_topp_sampler (FlashInfer sampler used when installed unless " +
	"VLLM_USE_FLASHINFER_SAMPLER=0; PR #21389: FlashInfer installed in the docker image \"for a long time\"); " +
	"PR #26859 (2025-10-15, opt-in) and docs.vllm.ai/en/v0.11.1 (\"Users must opt in explicitly\"); " +
	"docs.vllm.ai/en/v0.18.2 (opt-in, unsupported GPU raises); vllm/envs.py and vllm/v1/sample/ops/topk_topp_sampler.py at " + srcFA019 + " (unset = None, \"Users must opt in explicitly\"); " +
	"PR #40376 (merged 2026-04-29: FlashInfer on by default); vllm/envs.py (unset = True) and topk_topp_sampler.py (\"Default-on path\") at " + srcFA021 + "; 0.20.x unverified"

// srcSortBytes is where each term of the PyTorch sort path's working set
// comes from.
const srcSortBytes = "vllm/v1/sample/sampler.py (logits.to(torch.float32) beside the model's BF16 logits; apply_temperature divides in place); " +
	"vllm/v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p(_pytorch) (logits.sort → FP32 values + int64 indices); " +
	"PyTorch aten/src/ATen/native/cuda/SortStable.cu launch_stable_sort_kernel (≥128 rows: segmented_sort_pairs with an int64 " +
	"index input, fill_reverse_indices_kernel) and CUB DeviceSegmentedRadixSort dispatch (temporary storage holds a third keys " +
	"and a third values buffer, num_items × sizeof each); Triton/FlashInfer path: softmax probabilities and the exponential " +
	"noise of random_sample, FP32 each (topk_topp_sampler.py), or FlashInfer's masked logits and probabilities"

// Bytes per logit (per sampled row and vocabulary entry) that the profile's
// dummy sampler run holds at its peak, by top-k/top-p implementation,
// derived from the code cited in srcSortBytes.
const (
	// KernelSamplerBytesPerLogit: Triton or FlashInfer masking. BF16 logits
	// 2 (the model's output, still referenced by _dummy_sampler_run) + their
	// FP32 copy 4 + probabilities 4 + exponential noise (random_sample) 4
	// (FlashInfer instead: masked logits 4 + probabilities 4). The kernel's
	// own buffers are per program, not per row.
	KernelSamplerBytesPerLogit = 2 + 4 + 4 + 4
	// SortSamplerBytesPerLogit: the PyTorch sort, whose peak is the sort
	// itself. BF16 logits 2 + FP32 copy 4 + sorted values 4 + sorted int64
	// indices 8 + PyTorch's int64 index input to CUB 8 + CUB's third keys (4)
	// and values (8) buffers. After the sort the masks, the top-p softmax
	// and the scatter copy (4 + 8 + 1 + 4 + 1 + 4 over the logits) stay
	// below it.
	SortSamplerBytesPerLogit = 2 + 4 + 4 + 8 + 8 + 4 + 8
)

// tritonTopKTopP: releases whose forward_native masks with the Triton
// kernel. Absent through 0.15.0 (its API docs list no topk_topp_triton
// module), first read in 0.18.0's; 0.15.1 to 0.17.x unread.
var tritonTopKTopP = Span{Since: mustVersion("0.15.1"), Confirmed: v0180}

// tritonMinRows is the batch from which apply_top_k_top_p takes the Triton
// kernel rather than the sort.
const tritonMinRows = 8

// ProfileSampler is how a release's profile run filters its dummy sampler
// rows with top-k/top-p on CUDA, and what that costs per logit.
type ProfileSampler struct {
	// Triton is whether forward_native masks with the Triton kernel.
	Triton Presence
	// FlashInfer is whether FlashInfer samples by default (VLLM_USE_FLASHINFER_SAMPLER
	// unset): Present in 0.9.0–0.11.0 with FlashInfer installed (the official
	// image; a pip install without FlashInfer sorts), Absent where it is
	// opt-in (0.11.1-0.19.x), Present again from 0.21.0 (PR #40376), Maybe
	// before 0.9.0 and in 0.20.x (not read).
	FlashInfer Presence
	// Sorts is whether the profile's top-k/top-p runs the PyTorch sort for
	// the given rows: Present when neither kernel applies, Maybe when one may.
	Sorts Presence
	// BytesPerLogit is the working set per logit at the sampler's peak:
	// SortSamplerBytesPerLogit unless a kernel certainly masks (an unpinned
	// release is charged the larger, sort-sized working set).
	BytesPerLogit int
	// Path names the implementation charged, for formulas.
	Path   string
	Source string
}

// flashInferSamplerDefault is whether the release's TopKTopPSampler uses
// FlashInfer when VLLM_USE_FLASHINFER_SAMPLER is unset.
func flashInferSamplerDefault(v Version) Presence {
	switch {
	case v.Less(v090):
		return Maybe // 0.8.x's FlashInfer gate not read
	case v.Less(v0111):
		// Used when FlashInfer (≥ 0.2.3) is installed, as it is in the
		// official image vlaunch deploys (PR #21389: "installed flashinfer
		// by default in the docker image for a long time"); a pip install
		// without it sorts.
		return Present
	case v.Less(v0200):
		return Absent // opt-in (PR #26859; docs v0.11.1, v0.18.2; the 0.19.0 commit)
	case v.Less(v0210):
		return Maybe // PR #40376 (merged 2026-04-29): 0.20.x not read
	default:
		return Present // 0.21.0's envs.py: unset = True
	}
}

// FlashInferSamplerVariable switches TopKTopPSampler's FlashInfer path.
// vLLM reads it as bool(int(value)) and unset as None, which 0.9.x–0.11.0
// took as "use FlashInfer if installed" and later releases as "default".
const FlashInferSamplerVariable = "VLLM_USE_FLASHINFER_SAMPLER"

// ProfileSampler returns how the release's profile run samples rows dummy
// requests (min(max_num_seqs, max_num_batched_tokens) on the last pipeline
// stage), given VLLM_USE_FLASHINFER_SAMPLER's value (set false: unset). An
// integer value decides FlashInfer from 0.9.0 on ("0" off, any other on; a
// GPU FlashInfer does not support raises or falls back, which this does not
// model); before 0.9.0 the gate was not read; a value that is not an
// integer (vLLM fails on it) counts as unset.
func (r Release) ProfileSampler(rows int, flashInferEnv string, set bool) ProfileSampler {
	p := ProfileSampler{Triton: tritonTopKTopP.In(r.Version), FlashInfer: flashInferSamplerDefault(r.Version), Source: srcProfileSampler + "; " + srcSortBytes}
	if n, err := strconv.Atoi(strings.TrimSpace(flashInferEnv)); set && err == nil && r.Version.AtLeast(v090) {
		p.FlashInfer = Absent
		if n != 0 {
			p.FlashInfer = Present
		}
	}
	triton := p.Triton
	if rows < tritonMinRows && triton != Absent {
		triton = Maybe // the 8-row gate, in force until PR #54651 (release unpinned)
	}
	switch {
	case triton == Present || p.FlashInfer == Present:
		p.Sorts = Absent
	case triton == Absent && p.FlashInfer == Absent:
		p.Sorts = Present
	default:
		p.Sorts = Maybe
	}
	p.BytesPerLogit, p.Path = KernelSamplerBytesPerLogit, "Triton top-k/top-p"
	if triton != Present {
		p.Path = "FlashInfer top-k/top-p sampling"
	}
	if p.Sorts != Absent {
		p.BytesPerLogit, p.Path = SortSamplerBytesPerLogit, "PyTorch sort top-k/top-p"
		if p.Sorts == Maybe {
			p.Path += fmt.Sprintf(", charged where unpinned: Triton %s, FlashInfer default %s", triton, p.FlashInfer)
		}
	}
	return p
}

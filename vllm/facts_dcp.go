package vllm

// Decode context parallelism (--decode-context-parallel-size, -dcp): the
// facts vlaunch's spec, validate, memory and step models read, in one place.
//
// What it is (PR #23734, youzhedian, "[Feature] Support Decode Context
// Parallel (DCP) for MLA"): DCP reuses the GPUs of the TP group — it adds
// none — and splits one TP group into tp_size // dcp_size DCP groups, so
// tp_size must be divisible by dcp_size ("with -tp 8 -dcp 8, we use 8
// GPUs"). The KV cache is stored interleaved: the token at index i lives on
// the GPU whose dcp_rank is i % dcp_world_size, and "kvcache token budget
// always increased by `dcp` times". vLLM's docs
// (docs/serving/context_parallel_deployment.md, PR #26877) bound dcp by
// tp_size / H for a model of H KV heads (MLA: H = 1).
const srcDCP = "vllm PR #23734 (Support Decode Context Parallel (DCP) for MLA; description: TP divisible by DCP, DCP reuses the TP group's GPUs, interleaved KV, only FlashMLA at first); " +
	"vLLM v0.10.2 release notes (Distributed: Support Decode Context Parallel (DCP) for MLA (#23734)): new in 0.10.2, the notes listing the changes since 0.10.1 (the PR's description is of 2025-08-27); " +
	"docs/serving/context_parallel_deployment.md (PR #26877: dcp in [1, tp_size/H]); 0.10.2's own arg_utils.py not read, so 0.10.2 unverified"

// srcDCPGQA: GQA models gained DCP through FlashAttention in PR #24864
// ("[DCP] Support Decode Context Parallel (DCP) for GQA with FlashAttention",
// merged 2025-10-14, after v0.11.0 of 2025-10-02), which added to
// vllm/config/model.py the checks "tensor parallel size {tp} must be greater
// than total num kv heads {H} when enable decode context parallel for
// GQA/MQA" and "decode context parallel size must less than or equal to
// (tensor parallel size {tp} // total num kv heads {H})" (the same wording
// in later copies' draft-model check and in users' logs, e.g. MiniMax TP4
// with 8 KV heads refused).
const srcDCPGQA = "vllm PR #24864 (merged 2025-10-14; v0.11.0 released 2025-10-02, so 0.11.1 is its first release): DCP for GQA with FlashAttention; " +
	"vllm/config/model.py checks: tensor parallel size must be greater than total num kv heads, dcp <= tp // kv heads"

// srcDCPBackend: the worker asserts at start-up that every attention layer's
// implementation returns the softmax LSE for decode
// (vllm/v1/worker/gpu_model_runner.py, stored copies: "DCP requires
// attention impls to return the softmax lse for decode, but the impl
// {impl} does not return the softmax lse for decode."; issue #28407 quotes it
// for FlashInferImpl). FlashMLA is the first backend with it (PR #23734:
// "only support flashmla backend now"), FlashAttention for GQA from PR
// #24864; which other MLA backends (FlashAttention-MLA, CUTLASS MLA,
// FlashInfer MLA, Triton MLA) return it in which release is not pinned here
// (stored copies show FlashAttnMLAImpl, already in a copy of the
// 0.10.x-0.11.0 form, and later TritonMLAImpl with
// can_return_lse_for_decode = True).
const srcDCPBackend = "vllm/v1/worker/gpu_model_runner.py DCP assertion (need_to_return_lse_for_decode; stored copies); issue #28407 (FlashInferImpl refused); " +
	"PR #23734 (FlashMLA only at first); PR #24864 (FlashAttention for GQA); other MLA backends by release unverified"

// srcDCPLog: vllm/v1/core/kv_cache_utils.py (stored copy of
// get_kv_cache_config_from_groups' report): num_tokens = num_blocks //
// len(kv_cache_groups) × min_block_size, then "if
// decode_context_parallel_size > 1: num_tokens *= decode_context_parallel_size"
// with the log line "Multiplying the GPU KV cache size by the dcp_world_size
// %d."; the per-request need that "Maximum concurrency" divides by
// (FullAttentionSpec.max_memory_usage_bytes) counts cdiv(max_model_len,
// dcp_world_size) tokens per rank. Kimi-K2-Thinking's recipe
// (vllm-project/recipes moonshotai/Kimi-K2-Think.md at 0d218d1) logs the
// same 46.80 GiB at TP8 and TP8+DCP8 with 715,072 and 5,721,088 tokens;
// PR #24864's Qwen3-235B TP8+DCP2 log prints the multiplier line beside
// "GPU KV cache size: 1,723,584 tokens".
const srcDCPLog = "vllm/v1/core/kv_cache_utils.py (stored copy: num_tokens *= decode_context_parallel_size, \"Multiplying the GPU KV cache size by the dcp_world_size %d.\"); " +
	"kv_cache_interface.py FullAttentionSpec.max_memory_usage_bytes (cdiv(max_model_len, dcp_world_size) per rank); " +
	"recipes moonshotai/Kimi-K2-Think.md @0d218d1 (TP8: 715,072 tokens; TP8+DCP8: 5,721,088 at the same 46.80 GiB); PR #24864 log (TP8+DCP2)"

// srcDCPComm: the decode attention under DCP
// (vllm/v1/attention/backends/mla/common.py, PR #23734): each rank
// all-gathers the decode queries over the DCP group (its heads × the group),
// attends over its 1/dcp of every sequence's tokens, then
// cp_lse_ag_out_rs (vllm/attention/ops/common.py, stored copies): an
// all-gather of the partial softmax LSE (float32, one per token and head),
// the LSE correction of the partial outputs, and a reduce-scatter of the
// outputs back to the rank's heads. GQA with FlashAttention does the same
// for the cached context (PR #24864: "all-gathering Q and lse, then
// correcting the attn out before performing reduce-scatter").
const srcDCPComm = "vllm/v1/attention/backends/mla/common.py decode path (PR #23734: all_gather of q over the DCP group); vllm/attention/ops/common.py cp_lse_ag_out_rs (all_gather LSE, correct_attn_out, reduce_scatter out; stored copies); PR #24864 (GQA alike)"

// dcpSpan: releases with --decode-context-parallel-size. Since: 0.10.2's
// release notes list PR #23734 among the changes since 0.10.1, so no
// earlier release has the flag; 0.10.2's own arg_utils.py was not read
// (Maybe). Confirmed: the Kimi-K2-Thinking recipe's logs (a nightly
// between 0.11.0 and 0.11.1, logging the DCP multiplier line).
var dcpSpan = Span{Since: v0102, Confirmed: v0110}

// dcpGQASpan: releases that run DCP on a GQA/MQA model (FlashAttention).
var dcpGQASpan = Span{Since: v0111}

// DCPFlag is the flag's name as vllm serve takes it.
const DCPFlag = "decode-context-parallel-size"

// DCPLogMultiplies: "GPU KV cache size" is the rank's tokens × dcp.
const DCPLogMultiplies = true

// DCPSupport is what a release does with --decode-context-parallel-size.
type DCPSupport struct {
	// Flag is whether the release accepts the flag.
	Flag Presence
	// GQA is whether it runs DCP on a model without MLA (FlashAttention).
	GQA Presence
	// MLABackends are the MLA backends stored copies of vLLM show
	// returning the LSE DCP needs (FlashMLA from PR #23734; FlashAttention
	// MLA and Triton MLA with can_return_lse_for_decode in later copies,
	// release unverified; others may; see Source).
	MLABackends []string
	Source      string
}

// DCP is the release's decode context parallelism.
func (r Release) DCP() DCPSupport {
	return DCPSupport{
		Flag: dcpSpan.In(r.Version), GQA: dcpGQASpan.In(r.Version),
		MLABackends: []string{MLAFlashMLA, MLAFlashAttn, MLATriton},
		Source:      srcDCP + "; " + srcDCPGQA + "; " + srcDCPBackend,
	}
}

// DCPSince is the first release known to accept the flag.
func DCPSince() Version { return dcpSpan.Since }

// DCPGQASince is the first release that runs DCP on a GQA model.
func DCPGQASince() Version { return dcpGQASpan.Since }

// DCPLimit is the largest dcp vLLM accepts at tensor size tp for a model of
// kvHeads KV heads (MLA: 1): tp / kvHeads, and for GQA tp must exceed
// kvHeads (srcDCPGQA); 0 when no dcp > 1 is accepted.
func DCPLimit(tp, kvHeads int, mla bool) int {
	if mla {
		return tp
	}
	if kvHeads <= 0 || tp <= kvHeads {
		return 0
	}
	return tp / kvHeads
}

// DCPFits reports whether vLLM starts decode context parallel size dcp at
// tensor size tp for a model of kvHeads KV heads (MLA: mla true): tp a
// multiple of dcp, and for GQA dcp within DCPLimit. The release's own
// condition (the flag, GQA support) is Release.DCP's.
func DCPFits(tp, dcp, kvHeads int, mla bool) bool {
	if dcp <= 1 {
		return true
	}
	return tp%dcp == 0 && dcp <= DCPLimit(tp, kvHeads, mla)
}

// DCPLogSource cites the log's token multiplier and the per-request need.
const DCPLogSource = srcDCPLog

// DCPCommSource cites the per-layer collectives of DCP decode attention.
const DCPCommSource = srcDCPComm

// DCPLSEBytes is the LSE element vLLM gathers (float32).
const DCPLSEBytes = 4

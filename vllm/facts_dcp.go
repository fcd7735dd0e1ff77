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
// implementation returns the softmax LSE for decode (vllm/v1/worker/
// gpu_model_runner.py, later vllm/v1/worker/cp_utils.py
// check_attention_cp_compatibility, stored copies: "DCP requires attention
// impls to return the softmax lse for decode, but the impl {impl} does not
// return the softmax lse for decode."; issue #28407 quotes it for
// FlashInferImpl). Which backend passes it in which release is
// dcpBackendTable's, per backend.
const srcDCPBackend = "vllm/v1/worker/gpu_model_runner.py (later cp_utils.py) DCP assertion on need_to_return_lse_for_decode (stored copies); issue #28407 (FlashInferImpl refused); " +
	"per backend: dcpBackendTable (Release.DCPBackend)"

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

// dcpSpan: releases with --decode-context-parallel-size (and its -dcp
// alias). 0.10.2's release notes list PR #23734 among the changes since
// 0.10.1, and its arg_utils.py at the tag has the flag with the alias while
// 0.10.1.1's has none (srcDCPAlias).
var dcpSpan = Span{Since: v0102}

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
	// Source cites the flag and GQA facts; which attention backend accepts
	// DCP is Release.DCPBackend's.
	Source string
}

// DCP is the release's decode context parallelism.
func (r Release) DCP() DCPSupport {
	return DCPSupport{
		Flag: dcpSpan.In(r.Version), GQA: dcpGQASpan.In(r.Version),
		Source: srcDCP + "; " + srcDCPGQA + "; " + srcDCPBackend,
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

// Which attention backends accept decode context parallelism (dcp > 1), per
// release: the one place vlaunch keeps it (validate's SPEC135 and lint's
// VL134 only apply it).
//
// The mechanism: under DCP every rank attends over its 1/dcp of each
// sequence's tokens and the partial outputs are merged with the softmax LSE
// (cp_lse_ag_out_rs), so vLLM asserts at start-up that every attention
// implementation returns it ("DCP requires attention impls to return the
// softmax lse for decode, but the impl {impl} does not return the softmax
// lse for decode.", srcDCPBackend). An implementation opts in with the class
// attribute can_return_lse_for_decode = True. The automatic backend choice
// does not look at DCP: the selector filters backends by
// validate_configuration over the AttentionSelectorConfig (head size, dtype,
// KV dtype, block size, MLA, sinks, sparse), which carries no DCP size
// (stored vllm/platforms/cuda.py get_attn_backend_cls / get_valid_backends),
// and issue #28407 asks vLLM to suggest another backend "using
// VLLM_ATTENTION_BACKEND" after the default FlashInferImpl was refused. So a
// default backend that lacks the LSE stops the server just as a forced one
// does.
//
// A release where a source first shows the attribute is not its first
// release: each row keeps the first release that may accept DCP (Since:
// earlier releases refuse it, from a dated source) apart from the first a
// source shows accepting it (Confirmed; zero: none pinned, so every release
// from Since is unknown).

// Non-MLA attention backends as vLLM names them (AttentionBackendEnum).
const (
	AttnFlashAttn  = "FLASH_ATTN"
	AttnFlashInfer = "FLASHINFER"
)

// srcGQABackend: the non-MLA backend vLLM picks when none is forced.
const srcGQABackend = "vllm/platforms/cuda.py _get_backend_priorities, two stored forms: the dict form ({FLASHINFER: 0, FLASH_ATTN: 1, …} for compute capability 10.x, {FLASH_ATTN: 0, FLASHINFER: 1, …} otherwise) " +
	"and the list form beside AttentionConfig ([FLASHINFER, FLASH_ATTN, TRITON_ATTN, FLEX_ATTENTION] when device_capability.major == 10, else [FLASH_ATTN, FLASHINFER, …]); releases not read one by one"

// GQABackend is the attention backend the release picks for a model without
// MLA when none is forced, on a GPU of compute capability major smMajor:
// FlashInfer on Blackwell (10.x), FlashAttention on Ampere and Hopper (8.x,
// 9.x); "" when the GPU is unknown or another kind (the list differs).
func (r Release) GQABackend(smMajor int) (backend, source string) {
	switch smMajor {
	case 10:
		return AttnFlashInfer, srcGQABackend
	case 8, 9:
		return AttnFlashAttn, srcGQABackend
	}
	return "", srcGQABackend
}

// DCPBackendFact is one attention backend's decode context parallelism.
type DCPBackendFact struct {
	Backend string
	MLA     bool
	// Since is the first release that may accept dcp > 1 with the backend;
	// the releases before it refuse it at start-up (a dated source shows
	// the backend without the decode LSE after them).
	Since Version
	// Confirmed is the first release a cited source shows accepting it;
	// zero when none is pinned (unknown from Since on).
	Confirmed Version
	// Cite is the short citation a diagnostic quotes; Source the full one.
	Cite   string
	Source string
}

// In is the fact for release v: Absent before Since (or before the flag),
// Present from Confirmed, Maybe between (and throughout when Confirmed is
// zero).
func (f DCPBackendFact) In(v Version) Presence {
	switch {
	case !dcpSpan.Contains(v) || v.Less(f.Since):
		return Absent
	case f.Confirmed.IsZero() || v.Less(f.Confirmed):
		return Maybe
	}
	return Present
}

const (
	srcDCPFlashMLA = "PR #23734 (DCP for MLA: \"only support flashmla backend now\"; in the v0.10.2 release notes); stored flashmla.py FlashMLAImpl.can_return_lse_for_decode = True; " +
		"PR #43919's audit (2026-05-28: flashmla returns a natural-log LSE under DCP)"
	srcDCPFlashAttn = "PR #24864 (DCP for GQA with FlashAttention, merged 2025-10-14, after v0.11.0 of 2025-10-02: first in 0.11.1); " +
		"before it the GQA path has no DCP (the assertion was reported for FlashAttentionImpl on an H200)"
	srcDCPFlashInfer = "PR #25438 (\"[DCP] Support Decode Context Parallel (DCP) for GQA with Flashinfer\", opened 2025-09-23) is listed in vLLM's weekly summary of 2025-11-21, so merged 2025-11-14..21, after v0.11.0: " +
		"0.11.0 and earlier refuse FlashInferImpl (issue #28407, the assertion for FlashInferImpl); whether 0.11.1 and 0.11.2 carry it is not read; " +
		"v0.12.0 carries PR #29559 (multi-step CUDA graph, opened after 2025-11-21; listed in 0.12.0's notes), so its branch point is after #25438: first confirmed in 0.12.0; " +
		"stored flashinfer.py FlashInferImpl.can_return_lse_for_decode = True"
	srcDCPMLAUnpinned = "stored mla/*.py copies with can_return_lse_for_decode = True (FlashAttnMLAImpl in a 0.10.x-0.11.0-form copy, TritonMLAImpl in a later one); " +
		"PR #43919's audit (2026-05-28) lists triton_mla, flashattn_mla, flashmla and cutlass_mla as DCP-capable, and PR #47079 (2026-06-29) says TRITON_MLA, FlashAttention MLA, FlashMLA and Cutlass MLA run DCP; " +
		"the PRs that gave FlashAttention MLA, Triton MLA and CUTLASS MLA the LSE are not found: first release unknown"
	srcDCPFlashInferMLA = "PR #43729 (\"Support DCP with FlashInfer MLA\", opened 2026-05-27, rebased and approved 2026-06-29; PR #47079 fixes its log2 LSE) and PR #45189 (2026-06-10: \"Enable the FLASHINFER_MLA backend to be used with DCP by returning the decode softmax LSE\"): " +
		"FlashInferMLAImpl returned no LSE before; v0.21.0 was out by 2026-05-04 (issue #41623), so 0.21.0 and earlier refuse it; the first release with #43729 is not pinned"
	srcDCPFlashMLASparse = "PR #45426 (2026-06-12: \"Today the FlashMLA sparse backend cannot run under DCP at all: the impl never returns the softmax LSE\"), so 0.21.0 (out by 2026-05-04) and earlier refuse it; " +
		"PR #46514 (merged; opened 2026-06-23) gives FLASHMLA_SPARSE the LSE on the fp8_ds_mla path; issue #53134 reports DCP unavailable for GLM-5.2 FP8 on H200 with 0.26.0: first release not pinned"
)

// dcpBackendTable: the backends vlaunch resolves (Release.MLABackend,
// Release.GQABackend) and the forced ones it knows. A backend not listed is
// unknown (Maybe) in every release with the flag.
var dcpBackendTable = []DCPBackendFact{
	{Backend: MLAFlashMLA, MLA: true, Since: dcpSpan.Since, Confirmed: v0110, // the flag is read at 0.10.2, FlashMLA under DCP first in 0.11.0 logs
		Cite: "PR #23734", Source: srcDCPFlashMLA},
	{Backend: AttnFlashAttn, Since: dcpGQASpan.Since, Confirmed: dcpGQASpan.FirstConfirmed(), Cite: "PR #24864", Source: srcDCPFlashAttn},
	{Backend: AttnFlashInfer, Since: v0111, Confirmed: v0120, Cite: "PR #25438, merged 2025-11-14..21; issue #28407", Source: srcDCPFlashInfer},
	{Backend: MLAFlashAttn, MLA: true, Since: dcpSpan.Since, Cite: "stored copies, PR #43919's audit; release not pinned", Source: srcDCPMLAUnpinned},
	{Backend: MLATriton, MLA: true, Since: dcpSpan.Since, Cite: "stored copies, PR #43919's audit; release not pinned", Source: srcDCPMLAUnpinned},
	{Backend: MLACutlass, MLA: true, Since: dcpSpan.Since, Cite: "PR #43919's audit; release not pinned", Source: srcDCPMLAUnpinned},
	{Backend: MLAFlashInfer, MLA: true, Since: v0220, Cite: "PR #43729, opened 2026-05-27, after 0.21.0", Source: srcDCPFlashInferMLA},
	{Backend: MLAFlashMLASparse, MLA: true, Since: v0220, Cite: "PR #45426 of 2026-06-12, after 0.21.0; PR #46514", Source: srcDCPFlashMLASparse},
}

// DCPBackendFacts lists the table (a copy).
func DCPBackendFacts() []DCPBackendFact {
	return append([]DCPBackendFact(nil), dcpBackendTable...)
}

// DCPBackend is what the release does with dcp > 1 on the attention backend
// (vLLM's name, any case): Absent when it refuses at start-up (or has no
// flag), Present when a source shows it accepting, Maybe when unknown
// (including a backend the table does not list). known is false for such a
// backend.
func (r Release) DCPBackend(backend string) (p Presence, f DCPBackendFact, known bool) {
	name := upperASCII(backend)
	for _, row := range dcpBackendTable {
		if row.Backend == name {
			return row.In(r.Version), row, true
		}
	}
	f = DCPBackendFact{Backend: name, Since: dcpSpan.Since, Cite: "not in vlaunch's table", Source: srcDCPBackend + "; " + name + " not in vlaunch's table"}
	return f.In(r.Version), f, false
}

// upperASCII upper-cases an ASCII backend name.
func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// DCPBackendsAccepted lists the table's backends of the kind (MLA or not)
// a cited source shows accepting dcp > 1 in the release (Present).
func (r Release) DCPBackendsAccepted(mla bool) []string {
	var out []string
	for _, row := range dcpBackendTable {
		if row.MLA == mla && row.In(r.Version) == Present {
			out = append(out, row.Backend)
		}
	}
	return out
}

// The KV hand-off between P/D pools when a pool runs decode context
// parallelism, as the NIXL connector does it (issue #23).
//
// Before PR #50611 ("[Nixl][PD] DCP support for MLA models", NickLucche,
// opened 2026-07-31) "NIXL P/D disaggregation assumed MLA's KV cache is
// fully duplicated across TP, so a remote rank only needs to be read once.
// Decode Context Parallel (DCP) breaks that: it shards KV by block across
// ranks" (its description). It makes each side either fully replicated
// (dcp 1) or fully sharded (dcp = tp), a decode rank reading the remote
// ranks that hold its dcp_rank's blocks (remote_rank % local_dcp_size ==
// local_dcp_rank), so a prefill pool at dcp 1 pairs with a decode pool at
// dcp = tp. It adds to VllmConfig.__post_init__ (vllm/config/vllm.py) with
// a NixlConnector, as assertions at start-up:
//
//	assert dcp_size in (1, tp_size), "decode_context_parallel_size={dcp} must be 1 or equal to tensor_parallel_size={tp} when using NixlConnector."
//	assert use_mla or dcp_size == 1, "PD with decode_context_parallel_size > 1 is only supported for MLA models."
//	assert not (is_hybrid and dcp_size > 1), "... not supported for hybrid Mamba/SSM models."
//
// (PR #58071, 2026-09-22, quotes the second as "added in #50611"; a stored
// copy of vllm/config/vllm.py carries all three), and NixlPushConnector
// refuses dcp > 1 ("NixlPushConnector does not support
// decode_context_parallel_size > 1.", quoted by PR #56186 of 2026-09-10,
// still open, as #50611's guard).
//
// Release: PR #52779 (2026-08-18) still calls #50611 the pending owner of
// NIXL DCP support; PR #56186 (2026-09-10) says #50611 "added DCP to the
// NIXL pull path". vLLM 0.28.0 was out by 2026-08-26
// (coreweave/ml-containers#218), so it and 0.29/0.30 may or may not have
// it (their dates were not read); 0.27.x and earlier predate it. 0.31.0
// (2026-10-02, release_exists.go) is three weeks after the latest merge
// date and counts as having it: an inference from the dates, no 0.31.0
// source was read.
const srcKVTransferDCP = "vllm PR #50611 ([Nixl][PD] DCP support for MLA models; description: NIXL assumed MLA KV replicated across TP, DCP breaks that; each side dcp 1 or dcp = tp); " +
	"vllm/config/vllm.py NixlConnector checks (dcp in (1, tp); dcp > 1 only for MLA, quoted in PR #58071; not hybrid); NixlPushConnector refuses dcp > 1 (quoted in PR #56186); " +
	"merged between 2026-08-18 (PR #52779: pending) and 2026-09-10 (PR #56186: merged); v0.28.0 out by 2026-08-26 (coreweave/ml-containers#218), v0.31.0 2026-10-02"

// kvTransferDCPSince and kvTransferDCPFrom: releases before the first
// certainly lack PR #50611; from the second they have it (by the dates).
var (
	kvTransferDCPSince = v0280
	kvTransferDCPFrom  = mustVersion("0.31.0")
)

// KVTransferDCPFix names the change that taught NIXL to pair DCP pools.
const KVTransferDCPFix = "vLLM PR #50611 (first release between 0.28.0 and 0.31.0)"

// KVTransferDCPSource cites the facts of NIXL's DCP pairing.
const KVTransferDCPSource = srcKVTransferDCP

// NixlDCP is what a release's NIXL connector does with a pool's
// decode context parallel size.
type NixlDCP struct {
	// Aware: Present the connector knows DCP's sharding (PR #50611) and
	// checks the rules below at start-up; Absent it reads an MLA rank's KV
	// as if every TP rank held all of it (no check: a pool with dcp > 1 is
	// not a pairing it supports); Maybe unknown.
	Aware Presence
}

// NixlDCPIn is the release's NIXL handling of DCP.
func NixlDCPIn(v Version) NixlDCP {
	switch {
	case v.Less(kvTransferDCPSince):
		return NixlDCP{Aware: Absent}
	case v.Less(kvTransferDCPFrom):
		return NixlDCP{Aware: Maybe}
	}
	return NixlDCP{Aware: Present}
}

// NixlDCPProblem is what PR #50611's checks say of one NIXL instance at
// tensor size tp and decode context parallel size dcp ("" when it passes):
// dcp must be 1 or tp, and above 1 the model must use MLA and not be a
// hybrid (vLLM's is_hybrid: Mamba, Gated DeltaNet or KDA layers beside
// attention); push refuses dcp > 1 whatever the model.
func NixlDCPProblem(connector string, tp, dcp int, mla, hybrid bool) string {
	if dcp <= 1 {
		return ""
	}
	switch {
	case connector == "NixlPushConnector":
		return "NixlPushConnector does not support decode_context_parallel_size > 1"
	case dcp != tp:
		return "decode_context_parallel_size must be 1 or equal to tensor_parallel_size when using NixlConnector"
	case !mla:
		return "PD with decode_context_parallel_size > 1 is only supported for MLA models"
	case hybrid:
		return "PD with decode_context_parallel_size > 1 is not supported for hybrid Mamba/SSM models"
	}
	return ""
}

package vllm

// The "GPU KV cache size: N tokens" line of a start-up log. Up to 0.20.x
// vLLM printed num_blocks // len(kv_cache_groups) × the smallest group's
// block (vllm/v1/core/kv_cache_utils.py _report_kv_cache_config, read at
// v0.17.0 by a public walk-through that reproduces a hybrid model's log:
// 304 blocks // 4 groups × 2,096 = 159,296 tokens beside "Maximum
// concurrency for 65,536 tokens per request: 8.00x"); a later copy prints
// max_concurrency × max_model_len, commented as handling hybrid layouts,
// whose windowed and state groups need few blocks per request. Issue
// #43308 shows the change between releases: Gemma 4 31B on an A100 with the
// same arguments logged ~55k tokens on 0.20.0 and ~525k on 0.21.0 with the
// same ~50 GB of KV memory. For a model of one KV-cache group both rules
// give the same count.
const srcKVReport = "vllm/v1/core/kv_cache_utils.py _report_kv_cache_config (v0.17.0, per a public walk-through reproducing its log: num_blocks // len(kv_cache_groups) * min_block_size; a later copy: int(max_concurrency * max_model_len)); " +
	"issue #43308 (Gemma 4 31B, A100: ~55k tokens on 0.20.0, ~525k on 0.21.0, same args); 0.20.1 and 0.20.2 unverified"

// kvReportAsConcurrency: releases whose log prints max_concurrency ×
// max_model_len as the KV-cache size in tokens.
var kvReportAsConcurrency = Span{Since: mustVersion("0.20.1"), Confirmed: v0210}

// KVTokensAsConcurrency reports whether the release's "GPU KV cache size"
// is max_concurrency × max_model_len (Present), num_blocks divided among
// the KV-cache groups (Absent) or not pinned (Maybe), with the source.
func (r Release) KVTokensAsConcurrency() (Presence, string) {
	return kvReportAsConcurrency.In(r.Version), srcKVReport
}

// srcMambaAlign: a Mamba-2 or Gated DeltaNet layer group's pages per request
// (MambaSpec.max_memory_usage_bytes, vllm/v1/kv_cache_interface.py): one in
// mamba_cache_mode "none", two in "align" (the state at the previous block
// boundary kept for prefix caching), plus speculative blocks. A public
// walk-through of vLLM v0.17.0's source reproduces a hybrid model's log with
// two ("Maximum concurrency for 65,536 tokens per request: 8.00x" = 304
// blocks / (32 + 3 × 2)); CacheConfig's docstring in later copies calls
// "align" the default when prefix caching is enabled. Earlier releases'
// default ("none", or "all" in copies that call it the default) is not
// pinned.
const srcMambaAlign = "vllm/v1/kv_cache_interface.py MambaSpec.max_memory_usage_bytes (none: 1 page, align: 2 + speculative blocks); vllm/config/cache.py mamba_cache_mode docstring (align the default with prefix caching in later copies, all in earlier ones); " +
	"a public walk-through of v0.17.0 reproducing a hybrid log's 8.00x with 2 pages per state group; releases before 0.17.0 unverified"

// mambaAlignDefault: releases whose hybrid models keep two state pages per
// request by default (mamba_cache_mode align with prefix caching on).
var mambaAlignDefault = Span{Since: v0170, Confirmed: v0170}

// StatePagesPerRequest is how many pages a Mamba-2 or Gated DeltaNet group
// holds per request by default: 2 where mamba_cache_mode align is the
// default (0.17.0 on), else 1 (mamba_cache_mode none; earlier releases'
// default not pinned), with the source.
func (r Release) StatePagesPerRequest() (int, Presence, string) {
	p := mambaAlignDefault.In(r.Version)
	if p == Present {
		return 2, p, srcMambaAlign
	}
	return 1, p, srcMambaAlign
}

// A sliding-window or chunked-local KV group frees the pages behind its
// window on the processed-token basis, so steps scheduled but not yet
// settled keep theirs: later releases reserve window − 1 +
// max_in_flight_tokens per request (SlidingWindowSpec and
// ChunkedLocalAttentionSpec.max_admission_blocks_per_request, "single source
// of truth for both startup pool sizing and the runtime admission gate"),
// where VllmConfig.max_in_flight_tokens = max_concurrent_batches ×
// max_num_batched_tokens and max_concurrent_batches is 2 with async
// scheduling at PP 1 (PP + 1 with the V2 model runner, PP with the V1 one,
// at PP > 1) and PP without it. Earlier releases reserved window − 1 +
// max_num_batched_tokens: a 0.19.0 log (Gemma 3 27B on one H100, async
// scheduling on by default) is reproduced with the bare chunk, a
// 0.31.1rc1.dev50 one (MiMo-V2.6-Flash-MOPD, TP8 + EP on H100, 8,192-token
// chunks: 6,972,745 tokens, 26.60x) only with 16,384. Issue #39734 (a
// Gemma 4 admission deadlock on 0.19.1rc1) is the one the shared function
// answers, so the change is later; 0.19.1–0.27.0 are not pinned.
const srcInFlightReserve = "vllm/config/vllm.py VllmConfig.max_concurrent_batches and max_in_flight_tokens (L539-L561 of an annotated verbatim copy of v0.27.1); " +
	"vllm/v1/kv_cache_interface.py SlidingWindowSpec / ChunkedLocalAttentionSpec.max_admission_blocks_per_request(max_in_flight_tokens, max_model_len) (later copies); " +
	"start-up logs: 0.19.0 Gemma 3 (bare chunk), 0.31.1rc1.dev50 MiMo-V2.6-Flash-MOPD (tant2tls/Deepseek-serving, twice the chunk); 0.19.1-0.27.0 unverified"

// inFlightWindowReserve: releases whose windowed KV groups reserve the
// in-flight batches' tokens rather than one chunk.
var inFlightWindowReserve = Span{Since: mustVersion("0.19.1"), Confirmed: mustVersion("0.27.1")}

// WindowReserveBatches is how many max_num_batched_tokens batches a
// sliding-window or chunked-local KV group reserves beyond its window per
// request in release r: max_concurrent_batches where the release reserves
// for in-flight batches (async: true when the engine schedules
// asynchronously; pp the pipeline stages), else 1; with the presence of the
// rule and the source. At PP > 1 with async scheduling it assumes the V1
// model runner's PP (the V2 runner's PP + 1 is not modelled: which runner a
// release defaults to is not pinned).
func (r Release) WindowReserveBatches(async bool, pp int) (int, Presence, string) {
	p := inFlightWindowReserve.In(r.Version)
	if p != Present {
		return 1, p, srcInFlightReserve
	}
	pp = max(pp, 1)
	if async && pp == 1 {
		return 2, p, srcInFlightReserve
	}
	return pp, p, srcInFlightReserve
}

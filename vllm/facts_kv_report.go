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

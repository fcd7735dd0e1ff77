package vllm

// What a sliding-window KV-cache group holds per request. A windowed layer
// frees a block only once every token in it has left the window, and the
// frees happen on the processed-token basis, so a request holds the last
// window − 1 tokens plus the tokens scheduled but not yet processed, never
// more than max_model_len, in whole blocks plus one (the window need not
// start at a block boundary): SlidingWindowSpec.max_memory_usage_bytes,
// vllm/v1/kv_cache_interface.py, which both sizes the pool's "Maximum
// concurrency" at start-up and gates admission at run time.
//
// Up to 0.25.1 the tokens not yet processed were one batch,
// scheduler_config.max_num_batched_tokens (the copy read at v0.22.1 in its
// versioned API docs, ChunkedLocalAttentionSpec.max_admission_blocks_per_
// request, takes max_num_batched_tokens; every earlier sliding-window
// start-up log vlaunch reproduces follows it). A later copy of
// SlidingWindowSpec.max_admission_blocks_per_request takes
// VllmConfig.max_in_flight_tokens instead (vllm/config/vllm.py:
// max_concurrent_batches × max_num_batched_tokens, "every concurrent batch
// may hold up to a full max_num_batched_tokens"), and max_concurrent_batches
// is the pipeline-parallel size, or 2 with async scheduling and no pipeline
// parallelism ("Async scheduling requires 2 concurrent batches to overlap";
// the V2 model runner with async scheduling: pipeline size + 1). A public
// source walk-through quotes both properties at v0.27.1 (vllm/config/vllm.py
// L539–L561).
//
// The change is vLLM PR #47728 ("Free out-of-window blocks on the
// processed-token basis under async scheduling", opened 2026-07-06,
// merged: with
// async scheduling or PP the scheduler runs ahead of the GPU, so blocks an
// in-flight step still reads were freed early). Release: a review comment
// on tenstorrent/tt-xla PR #5908 reads vLLM's source at its 0.26.0 uplift:
// "renamed this arg from max_num_batched_tokens, and the rename hid a
// factor: max_in_flight_tokens = max_concurrent_batches *
// max_num_batched_tokens"; vllm-project/vllm issue #49878 reports Gemma 4's
// KV need growing by ~40% from 0.25.1 to 0.26 with the same arguments; and
// two public 0.26.0 start-up logs on one B300 (johnpfeiffer/
// source.johnpfeiffer.github.io content/ai/b300-deepseek-0731.md @4105624,
// async scheduling on, 8,192 batched tokens) follow it: Gemma-4-31B-it at
// max_model_len 16,384 logs 13.25x and 217,116 tokens, exactly 74,700
// blocks / (5 × (ceil(min(1,023 + 16,384, 16,384) / 16) + 1) + 512), where
// one batch would give 21.99x. Later releases: vllm issue #54703
// (2026-09-01) reproduces two servers' logs to the token with the
// per-request charge of 2 × max_num_batched_tokens, the v0.27.1 copy
// and a newer one in the search index (commit not shown) keep it, and a
// 0.31.1rc1.dev50 start-up log (MiMo-V2.6-Flash-MOPD, TP8 + EP on H100,
// 8,192-token chunks, tant2tls/Deepseek-serving: 6,972,745 tokens, 26.60x)
// is reproduced only with 16,384 tokens in flight; PRs that would count the in-flight tokens once per
// pool or bound them by the window (#52495, #55818) were open when read, so
// a release that merges one would break this rule unnoticed.
const srcSlidingInFlight = "vllm/v1/kv_cache_interface.py SlidingWindowSpec.max_memory_usage_bytes / max_admission_blocks_per_request " +
	"(min(sliding_window - 1 + in-flight tokens, max_model_len), cdiv by block + 1); vllm/config/vllm.py VllmConfig.max_in_flight_tokens = " +
	"max_concurrent_batches * max_num_batched_tokens (max_concurrent_batches: PP size, 2 with async scheduling at PP 1), quoted at v0.27.1; " +
	"one batch (max_num_batched_tokens) in the v0.22.1 copy (docs.vllm.ai/en/v0.22.1/api/vllm/v1/kv_cache_interface/); " +
	"PR #47728 (free on the processed-token basis); tenstorrent/tt-xla PR #5908 review (the 0.26.0 rename from max_num_batched_tokens); " +
	"issue #49878 (Gemma 4 KV need +40% from 0.25.1 to 0.26); issue #54703 (2026-09-01, per-request charge reproduced); " +
	"PRs #52495 and #55818 (once per pool / window-bounded) open when read: releases after 0.27.1 unverified; 0.26.0 start-up logs of Gemma-4-31B-it (13.25x, 217,116 tokens) and " +
	"DeepSeek-V4-Flash (johnpfeiffer/source.johnpfeiffer.github.io content/ai/b300-deepseek-0731.md@4105624); " +
	"a 0.31.1rc1.dev50 start-up log of MiMo-V2.6-Flash-MOPD (tant2tls/Deepseek-serving, 26.60x, 6,972,745 tokens: two 8,192-token batches)"

// slidingInFlight: releases whose sliding-window groups reserve every batch
// in flight rather than one.
var slidingInFlight = Span{Since: v0260}

// slidingInFlightReadThrough is the last release a cited copy shows the
// per-request charge in (v0.27.1); later ones are taken to keep it, Maybe.
var slidingInFlightReadThrough = mustVersion("0.27.1")

// SlidingWindowInFlight is the tokens a sliding-window group of release r
// keeps per request beside its window − 1: from 0.26.0, max_num_batched_
// tokens (batched) times the batches in flight — the pipeline-parallel
// size pp, or 2 when the engine schedules asynchronously (async) at PP 1
// (Present through 0.27.1, Maybe after: no later release file was read);
// before, one batch (Absent). With the V2 model runner, async
// scheduling and PP > 1 vLLM keeps pp + 1 batches; vlaunch does not know
// the runner and counts pp. The same tokens size chunked-local attention
// in those copies, which vlaunch sizes as full attention.
func (r Release) SlidingWindowInFlight(batched int, async bool, pp int) (int, Presence, string) {
	batched = max(batched, 1)
	if slidingInFlight.In(r.Version) != Present {
		return batched, Absent, srcSlidingInFlight
	}
	batches := max(pp, 1)
	if async && batches == 1 {
		batches = 2
	}
	p := Present
	if slidingInFlightReadThrough.Less(r.Version) {
		p = Maybe
	}
	return batches * batched, p, srcSlidingInFlight
}

package perf

import "github.com/vlaunch/vlaunch/vllm"

// UseTokenizerBatchWait switches on the API server's micro-batching wait
// before a text prompt is tokenized: a latency of TokenizerBatchWaitS that
// each request of a lightly loaded server pays between its synchronous
// ingest and its hand-off to the engine, on releases whose OpenAI server
// tokenizes through AsyncMicrobatchTokenizer (vllm.TokenizerBatchWaits, where
// the release facts and their sources live). It is a
// wait, not work: the event loop runs other requests and streams meanwhile,
// so it delays the request's own TTFT and nothing else.
//
// The mechanism (vllm/utils/async_utils.py, stored version 007e04ac;
// docs.vllm.ai v0.15.0 and v0.22.1 api/vllm/utils/async_utils, the 0.11.0
// copy in vllm/utils): AsyncMicrobatchTokenizer._batch_encode_loop takes the
// first queued prompt, sets `deadline = self._loop.time() +
// self.batch_wait_timeout_s` (default 0.002) and waits on the queue until
// the deadline or 32 prompts, and only then hands the batch to its
// one-thread executor: a prompt that arrives alone waits the whole 2 ms.
// The chat endpoint reaches it through OpenAIServing._preprocess_chat →
// _tokenize_prompt_input_async → _normalize_prompt_text_to_input →
// `await async_tokenizer(prompt, ...)` (vllm/entrypoints/openai/
// serving_engine.py, stored 0.11-line version), the completions endpoint
// through the renderer (vllm.PromptTokenizationSource). vLLM's maintainers
// measured it: PR #44172 (2026-06-01: the fixed batch_wait_timeout_s "adds
// about 2ms of frontend latency for low-concurrency ... workloads"), PR
// #39763 (2026-04-14: "the 2ms latency regression introduced by the
// asynchronous tokenizer. found in #27407"; PR #27407's per-request trace of
// the embeddings endpoint, 0.11-era main: _preprocess 2.21 ms on a 9800X3D,
// 2.37 ms on a Xeon 8575C, of 5.4 ms a request in all), and PR #45759
// (merged 2026-06-16) removed the class ("a 2ms wait_timeout, which is too
// large for preprocessing, as the normal time for most tokenizer.encode
// calls is ~0.1ms").
//
// On (adopted 2026-12-07, session 36): the simulator adds it to a
// request's hand-off time but not to the front end's busy time
// (sim.Frontend.ReadyDelayS), for check (slo.ApplyEngine) and the
// calibration replay alike. Measured (issue #28 "apisrv"): calibration 206
// of 220 either way; holdout split 142 -> 143 (jingchaozhang Qwen2.5-72B
// TP8×PP2 c1 TTFT -31% -> -23%); GPUStack's Qwen3-8B c1 TTFT 28.3 -> 30.3
// ms of 59.0 published, c2–c8 +0.04–0.37 ms (a closed loop's arrivals lock
// to step boundaries in the simulation, and 2 ms rarely crosses one); the
// four regimes at bar and the guards unchanged. It is 2 ms of the 30–38 ms
// per-arrival stall those runs show (chatttft_test.go) and a latency, not
// the serialized work the stall is: it does not close issue #28's low-load
// gap.
var UseTokenizerBatchWait = true

// TokenizerBatchWait is how long a text prompt that reaches release rel's
// tokenizer alone waits for company before it is tokenized:
// TokenizerBatchWaitS where a source shows the release batching (Present
// in vllm.TokenizerBatchWaits) and the prompt is text, else 0 — also with
// UseTokenizerBatchWait off. tokenIDs: the prompt reaches the engine as
// token ids without the tokenizer (gpt-oss on the chat endpoint, whose
// harmony renderer builds ids; vllm.IngestAwaitsTokenizer).
func TokenizerBatchWait(rel vllm.Release, tokenIDs bool) float64 {
	if !UseTokenizerBatchWait || tokenIDs || vllm.TokenizerBatchWaits(rel.Version) != vllm.Present {
		return 0
	}
	return vllm.TokenizerBatchWaitS
}

// UseTokenizerThread switches on where the release encodes a text prompt
// (vllm.PromptTokenizerOf) in the simulated front end
// (sim.Frontend.Tokenizer): off the event loop on the tokenizer's thread
// from 0.6.5, in micro-batches encoded in parallel on 0.10.0–0.23.x. Off,
// every release encodes on the loop, one prompt after another, queued with
// the other requests' ingest and the streamed outputs.
var UseTokenizerThread = true

// PromptTokenizer is where release rel's OpenAI server encodes a request's
// text prompt (vllm.PromptTokenizerOf): on the event loop where
// UseTokenizerThread is off or the prompt reaches the engine as token ids
// without the tokenizer (tokenIDs: gpt-oss's harmony chat path, as
// TokenizerBatchWait).
func PromptTokenizer(rel vllm.Release, tokenIDs bool) vllm.PromptTokenizer {
	if !UseTokenizerThread || tokenIDs {
		return vllm.TokenizeOnLoop
	}
	return vllm.PromptTokenizerOf(rel.Version)
}

package vllm

// srcRPC: the 0.5.4 multiprocessing frontend and its fixed port.
const srcRPC = "PR #6883 (Jul 2024: OpenAI server in its own process, ZMQ to the engine; \"add flag to disable mp\"); " +
	"issue #7653 (maintainer: \"We introduced multiprocessing into the frontend in v0.5.4\"); " +
	"issue #7196 (2024-08-06: a second api_server on the host fails: \"ZMQError: Address already in use (addr='tcp://127.0.0.1:5570')\" in vllm/entrypoints/openai/rpc/server.py); " +
	"PR #7222 (\"Move zmq frontend to IPC instead of TCP\", reviewed 2024-08-06; merged before 0.5.5 is unverified); LMCache examples set VLLM_RPC_PORT=5570 per instance"

// FrontendRPC is how a release's OpenAI frontend reaches its engine, where
// that matters for running several servers on one host.
type FrontendRPC struct {
	// FixedTCPPort is the TCP port every server binds on 127.0.0.1 (0 when
	// the release uses IPC or an in-process engine): two servers on one
	// host collide ("ZMQError: Address already in use") unless each sets
	// PortEnv to its own port or passes --disable-frontend-multiprocessing.
	FixedTCPPort int
	PortEnv      string
	Source       string
}

// frontendTCPSpan is the release span with the fixed TCP port.
var frontendTCPSpan = Span{Since: v054, Removed: v055}

// FrontendRPC returns the release's frontend transport facts.
func (r Release) FrontendRPC() FrontendRPC {
	f := FrontendRPC{Source: srcRPC}
	if frontendTCPSpan.Contains(r.Version) {
		f.FixedTCPPort, f.PortEnv = 5570, "VLLM_RPC_PORT"
	}
	return f
}

// srcEngineEra: V0 and V1 engines by release.
const srcEngineEra = srcDP080 + " (V1 opt-in via VLLM_USE_V1=1 in 0.8.0's DP example); verl-pipeline issue #5 (V1 default from 0.8.0, third-party); " +
	"huggingface/optimum-neuron PR #1027 (V0 removed in 0.11.0, third-party); vllm-ascend PR #4086 (Nov 2025: VLLM_USE_V1 removed from vLLM); " +
	"the V1 opt-in's first release (≈0.7.0) unverified"

// EngineEra says which engines a release has.
type EngineEra struct {
	// V1 is the V1 engine (opt-in with VLLM_USE_V1=1 before it became the
	// default); V1Default is whether it is the default.
	V1, V1Default Presence
	// V0 is the legacy engine (the only one before V1; gone in 0.11.0).
	V0     Presence
	Source string
}

var (
	v1Span        = Span{Since: v070, Confirmed: v080}
	v1DefaultSpan = Span{Since: v080}
	v0Span        = Span{Since: vPre, Removed: v0110}
)

// EngineEra returns the release's engines. Multi-node DP and EP serving,
// headless nodes and the all-to-all backends exist only with V1.
func (r Release) EngineEra() EngineEra {
	return EngineEra{V1: v1Span.In(r.Version), V1Default: v1DefaultSpan.In(r.Version), V0: v0Span.In(r.Version), Source: srcEngineEra}
}

// V0Default reports a release that serves with the V0 engine unless told
// otherwise (before 0.8.0): its scheduler defaults and memory profile are
// the V0 engine's.
func (e EngineEra) V0Default() bool { return e.V1Default == Absent }

// MaxCompletionTokens is the most output tokens (wanted, at most) a
// request with promptTokens of prompt may ask for on a server of
// maxModelLen (0: no limit known), at least 1: vLLM's OpenAI server rejects
// a prompt + max_tokens above max_model_len rather than truncating it, so
// a benchmark client asks for what fits.
//
// Source: vllm/entrypoints/openai/serving_engine.py,
// OpenAIServing._validate_prompt_and_tokenize at commit 0030b9ff (the 0.5
// line): "if token_num + request.max_tokens > self.max_model_len: raise
// ValueError(...)", an unset max_tokens meaning max_model_len − prompt.
// Later servers word it "'max_tokens' or 'max_completion_tokens' is too
// large: N. This model's maximum context length is L tokens and your
// request has P input tokens (N > L - P)" (HTTP 400, in third-party
// reports from 2025–2026; the release that reworded it is unverified).
func MaxCompletionTokens(maxModelLen, promptTokens, wanted int) int {
	if maxModelLen > 0 {
		wanted = min(wanted, maxModelLen-promptTokens)
	}
	return max(1, wanted)
}

// PromptTokenizationSource is where vLLM's OpenAI server turns a text
// prompt into token ids: in the API-server process, before the request is
// handed to the engine, on one tokenizer thread shared by every request of
// that process, so long prompts queue behind each other there (perf's
// FrontendPromptTokenS prices it). A client that sends token ids skips it;
// `vllm bench serve`'s random and prefix_repetition datasets send text
// (they decode random ids to a string).
const PromptTokenizationSource = "vllm/entrypoints/renderer.py at commit 09b5e071 (the 0.10.2–0.11 line, " +
	"`from vllm.utils import AsyncMicrobatchTokenizer`): CompletionRenderer._create_prompt_from_text awaits " +
	"AsyncMicrobatchTokenizer(text), one per tokenizer (async_tokenizer_pool); vllm/utils (docs.vllm.ai v0.11.0 " +
	"api/vllm/utils) and vllm/utils/async_utils.py (docs.vllm.ai v0.15.0, v0.22.1): AsyncMicrobatchTokenizer " +
	"runs every encode on `ThreadPoolExecutor(max_workers=1)` \"so the event loop stays responsive\", a lone " +
	"prompt as `self.tokenizer(p)`, prompts arriving within batch_wait_timeout_s = 2 ms (up to 32) as one " +
	"batched call; vllm/renderers/base.py (docs.vllm.ai v0.20.0; main at 03499b26): " +
	"BaseRenderer._tokenize_prompt_async → get_async_tokenizer() → the same AsyncMicrobatchTokenizer. " +
	"Earlier: PR #10635 (Nov 2024) moved tokenization off the event loop onto a one-thread executor " +
	"(\"with long sequence lengths (256K), tokenization can take a few hundred milliseconds\"); issue #25301 " +
	"(Sep 2025, open) asks for a process pool because long prompts wait in that serial queue"

// IngestAwaitsTokenizer reports whether vLLM's OpenAI server, serving a
// model of type modelType (config.json's model_type), suspends a request's
// handler between its synchronous ingest (the request's parsing, the chat
// template) and its hand-off to the engine: a text prompt is encoded on the
// tokenizer thread and awaited (PromptTokenizationSource), and a suspended
// coroutine resumes only in a later pass of the event loop (CPython's
// asyncio BaseEventLoop._run_once runs the callbacks ready when a pass
// begins; what becomes ready meanwhile waits for the next), so requests
// arriving together reach the engine together once every one of them has
// been ingested. gpt-oss's chat prompts are built as token ids by harmony
// (ChatTemplateParse.Harmony; serving_chat.py at b8b302cd), with no
// tokenizer to await; what its path awaits before the engine was not read,
// so it keeps one request after another. Read for the 0.10.2–0.11 line and
// 0.20+ (the sources of PromptTokenizationSource); the releases between
// and before are assumed the same (not read). The public bursts agree: a
// 1,000-prompt burst of 128-token prompts on vLLM 0.11.0's chat endpoint
// has a P99 TTFT 1.11–1.25 × its mean (every request waits for the whole
// burst's ingest), gpt-oss's 1.39 × (published/throughput.yaml, gpustack
// rows), where requests released one by one would give about 2 ×.
func IngestAwaitsTokenizer(modelType string) bool { return modelType != "gpt_oss" }

// TokenizerBatchWaitS is AsyncMicrobatchTokenizer's batch_wait_timeout_s
// default (0.002 s, the same in the 0.11.0 and 0.22.1 copies): the wait
// before a prompt that reaches the tokenizer alone is encoded
// (TokenizerBatchWaits).
const TokenizerBatchWaitS = 2e-3

// tokenizerBatchWaitSpan: the releases whose OpenAI server tokenizes text
// prompts through AsyncMicrobatchTokenizer, whose _batch_encode_loop takes
// the first queued prompt, sets `deadline = self._loop.time() +
// self.batch_wait_timeout_s` and waits on the queue until the deadline or
// 32 prompts (vllm/utils/async_utils.py, stored version 007e04ac; the 0.11.0
// copy in vllm/utils). PR #19334 ("[Feature] microbatch tokenization") was
// opened on 2025-06-08; its first release is 0.10.0 (below); docs.vllm.ai v0.22.1's async_utils has it,
// v0.24.0's lists no such class (removed by PR #45759, merged 2026-06-16:
// "a 2ms wait_timeout, which is too large for preprocessing"). vLLM's
// maintainers measured the wait: PR #44172 ("adds about 2ms of frontend
// latency for low-concurrency ... workloads"), PR #39763 ("the 2ms latency
// regression introduced by the asynchronous tokenizer", found in PR #27407's
// per-request trace).
//
// Read at the release tags (tok43): the class is absent from v0.9.2's
// vllm/utils/__init__.py and present, with these defaults and its callers
// in vllm/entrypoints/openai/serving_engine.py (_get_async_tokenizer,
// _normalize_prompt_text_to_input), from v0.10.0 (v0.10.0rc1 already) to
// v0.23.0 (vllm/utils/async_utils.py from v0.12.0; called from
// vllm/renderers/base.py from v0.18.0); v0.24.0 has no such class.
var tokenizerBatchWaitSpan = Span{Since: mustVersion("0.10.0"), Removed: mustVersion("0.24.0")}

// TokenizerBatchWaits reports whether release v's OpenAI server makes a
// text prompt that reaches its tokenizer alone wait TokenizerBatchWaitS
// (tokenizerBatchWaitSpan): Present, Absent, or Maybe where the release
// was not read.
func TokenizerBatchWaits(v Version) Presence { return tokenizerBatchWaitSpan.In(v) }

// PromptTokenizer is where a release's OpenAI server runs the encode of a
// text prompt, relative to the asyncio event loop that parses requests,
// renders chat templates and streams outputs.
type PromptTokenizer int

const (
	// TokenizeOnLoop: the handler encodes the prompt synchronously on the
	// event loop, queued with every other request's ingest and the
	// streamed outputs (v0.6.4.post1 serving_engine.py: _preprocess_chat
	// calls self._tokenize_prompt_input(...) directly).
	TokenizeOnLoop PromptTokenizer = iota
	// TokenizeThread: one prompt at a time on a one-thread executor, off
	// the loop: the loop parses the next request while the thread encodes
	// (v0.6.5–v0.9.2 serving_engine.py: `self._tokenizer_executor =
	// ThreadPoolExecutor(max_workers=1)`, `_tokenize_prompt_input_async =
	// make_async(self._tokenize_prompt_input, executor=...)`, awaited by
	// _preprocess_chat and the completions path; PR #10635; v0.24.0
	// vllm/renderers/base.py: `ThreadPoolExecutor(max_workers=pool_workers)`,
	// pool_workers = model_config.renderer_num_workers, default 1 in
	// vllm/config/model.py, one make_async(self._encode) call a prompt).
	TokenizeThread
	// TokenizeMicrobatch: AsyncMicrobatchTokenizer on its one-thread
	// executor (tokenizerBatchWaitSpan, v0.10.0–v0.23.x): the batcher takes
	// the first queued prompt, waits TokenizerBatchWaitS for more, up to
	// TokenizerMaxBatch, and encodes them in one call,
	// `partial(self.tokenizer, prompts, **kwargs)` when their kwargs match
	// (no per-request truncation) — a HuggingFace fast tokenizer's batch
	// encode, which releases the GIL and encodes the prompts in parallel
	// on rayon's pool (huggingface/tokenizers@b08bdb93
	// tokenizers/src/tokenizer/mod.rs encode_batch: "Encode all the
	// sentences in parallel, using multiple threads",
	// inputs.into_maybe_par_iter(); bindings/python/src/tokenizer.rs
	// encode_batch inside py.detach). The chat endpoint renders each
	// request's template on the loop first and then awaits the batcher
	// (v0.11.0 serving_engine.py _preprocess_chat: apply_hf_chat_template,
	// then `await self._tokenize_prompt_input_async(...)` →
	// _normalize_prompt_text_to_input → `await async_tokenizer(prompt,
	// add_special_tokens=...)`); completions reach it through
	// CompletionRenderer (v0.10.2–v0.15.x vllm/entrypoints/renderer.py) and
	// BaseRenderer._tokenize_prompt_async (v0.18.0+ vllm/renderers/base.py).
	TokenizeMicrobatch
)

// TokenizerMaxBatch is AsyncMicrobatchTokenizer's max_batch_size default
// (32 in every copy from v0.10.0 to v0.23.0).
const TokenizerMaxBatch = 32

// tokenizerThreadSince is the first release whose OpenAI server encodes
// prompts off the event loop (v0.6.5; v0.6.4.post1 encodes on it).
var tokenizerThreadSince = mustVersion("0.6.5")

// PromptTokenizerOf is where release v encodes a text prompt (read at the
// tags named on the constants; every release between two read ones is
// taken to be like them, the tags having been read at 0.6.4.post1, 0.6.5,
// 0.8.5, 0.9.2, 0.10.0–0.12.0, 0.15.0, 0.18.0, 0.20.0, 0.22.1, 0.23.0 and
// 0.24.0).
func PromptTokenizerOf(v Version) PromptTokenizer {
	switch {
	case v.Less(tokenizerThreadSince):
		return TokenizeOnLoop
	case tokenizerBatchWaitSpan.Contains(v):
		return TokenizeMicrobatch
	}
	return TokenizeThread
}

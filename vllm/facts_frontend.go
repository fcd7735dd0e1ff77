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
// opened on 2025-06-08 and in review on 2025-06-22: its first release was
// not read, so 0.9.1 is the earliest that may carry it; 0.11.0 is the first
// a source shows it in (docs.vllm.ai v0.11.0 api/vllm/utils,
// PromptTokenizationSource); docs.vllm.ai v0.22.1's async_utils has it,
// v0.24.0's lists no such class (removed by PR #45759, merged 2026-06-16:
// "a 2ms wait_timeout, which is too large for preprocessing"). vLLM's
// maintainers measured the wait: PR #44172 ("adds about 2ms of frontend
// latency for low-concurrency ... workloads"), PR #39763 ("the 2ms latency
// regression introduced by the asynchronous tokenizer", found in PR #27407's
// per-request trace).
var tokenizerBatchWaitSpan = Span{Since: mustVersion("0.9.1"), Confirmed: mustVersion("0.11.0"), Removed: mustVersion("0.24.0")}

// TokenizerBatchWaits reports whether release v's OpenAI server makes a
// text prompt that reaches its tokenizer alone wait TokenizerBatchWaitS
// (tokenizerBatchWaitSpan): Present, Absent, or Maybe where the release
// was not read.
func TokenizerBatchWaits(v Version) Presence { return tokenizerBatchWaitSpan.In(v) }

package vllm

import "strings"

// What a streaming client receives first from vLLM's OpenAI server, and when.
// A benchmark's TTFT is the time to the first streamed chunk it counts, so
// these facts decide whether a published TTFT is the engine's first token or
// something later (issue #28: the idle TTFT vlaunch misses).
//
//   - The V1 scheduler sends a request's output to the front end only in a
//     step that sampled a token for it (or finished it, or carries KV-transfer
//     parameters): Scheduler.update_from_output appends an EngineCoreOutput
//     `if new_token_ids or pooler_output is not None or kv_transfer_params`
//     (vllm/v1/core/sched/scheduler.py, every stored version read, the later
//     ones adding `or stopped`). A prefill chunk that samples nothing sends
//     nothing.
//   - The chat endpoint sends its first chunk, the role delta (`{"role":
//     "assistant", "content": ""}`), inside `async for res in
//     result_generator:` on the first iteration (serving_chat.py
//     chat_completion_stream_generator at 99c5632f), so it leaves with the
//     request's first output, together with that token's own delta; the
//     completions endpoint sends a chunk per output, its text empty for a
//     token that decodes to nothing. On V0 with chunked prefill a prefill
//     chunk did yield an output, and the role chunk went out after the first
//     chunk of the prompt, before the first token (issue #15106,
//     serving_chat.py at ed6e9075).
//   - What the first tokens' deltas carry depends on the model: gpt-oss speaks
//     harmony, and the chat endpoint streams its `analysis` channel (the
//     reasoning, which comes first) as `reasoning_content` (`reasoning` in
//     later releases) and only the `final` channel as `content`
//     (`if self.use_harmony: if cur_channel == "final": DeltaMessage(content=…)
//     elif cur_channel == "analysis": DeltaMessage(reasoning_content=…)`,
//     same function and commit); a server started with --reasoning-parser
//     streams a thinking model's reasoning as `reasoning_content` until the
//     parser sees its end marker (reasoning_parser.extract_reasoning_content_streaming,
//     same function). The completions endpoint applies neither: it streams
//     the raw text.
//
// Which chunk the clients count (cited in docs/ttft-client-timing.md): vLLM's
// `vllm bench serve` and benchmark_serving.py the first chunk with `choices`,
// whatever its text (so the role chunk on chat: the first token's time, for
// any model); SGLang's bench_serving, genai-perf and inference-perf's
// completion parser the first chunk with non-empty text or `content`. A
// content-timed TTFT of a model whose reasoning streams first is the prefill
// plus one decode step per reasoning token.
const srcFirstStreamedChunk = "vllm/v1/core/sched/scheduler.py Scheduler.update_from_output " +
	"(\"if new_token_ids or pooler_output is not None or kv_transfer_params\": no output without a sampled token); " +
	"vllm/entrypoints/openai/serving_chat.py at 99c5632fc2d2 chat_completion_stream_generator " +
	"(\"if first_iteration:\" inside \"async for res in result_generator\": the role delta with content \"\" leaves with the first output); " +
	"issue #15106 (V0, chunked prefill, serving_chat.py at ed6e9075: the role chunk after the first prefill chunk)"

// srcReasoningChannel: where the chat endpoint streams reasoning.
const srcReasoningChannel = "vllm/entrypoints/openai/serving_chat.py at 99c5632fc2d2 chat_completion_stream_generator " +
	"(harmony: \"analysis\" channel → DeltaMessage(reasoning_content=…), \"final\" → content; " +
	"--reasoning-parser: reasoning_parser.extract_reasoning_content_streaming until is_reasoning_end); " +
	"gpt-oss (GptOssForCausalLM, harmony) from 0.10.1 (blog.vllm.ai 2025-08-05)"

// FirstChunkAtFirstToken reports whether release r's OpenAI server sends a
// request's first streamed chunk only with its first generated token (the V1
// engine, the default from 0.8.0), so that a client timing the first chunk
// measures the prefill and nothing before it; on the V0 engine with chunked
// prefill the chat role chunk could leave after the prompt's first chunk.
func (r Release) FirstChunkAtFirstToken() (Presence, string) {
	return v1DefaultSpan.In(r.Version), srcFirstStreamedChunk
}

// ReasoningStreamsFirst says whether the chat endpoint streams the first
// generated tokens of a model of type modelType (config.json's model_type)
// outside `content`, given the server's command-line arguments (a
// --reasoning-parser among them): gpt-oss's harmony analysis channel always,
// a thinking model's reasoning when a reasoning parser is set. The second
// value names which, for a report; both are empty when the content starts
// with the first token.
func ReasoningStreamsFirst(modelType string, serverArgs []string) (bool, string, string) {
	if modelType == "gpt_oss" {
		return true, "gpt-oss's harmony analysis channel (its reasoning) streams as reasoning_content before the final channel's content", srcReasoningChannel
	}
	if p := reasoningParser(serverArgs); p != "" {
		return true, "--reasoning-parser " + p + " streams the model's reasoning as reasoning_content before its content", srcReasoningChannel
	}
	return false, "", ""
}

// reasoningParser is the value of the last --reasoning-parser among args
// (argparse's rule: the last one wins), as "--reasoning-parser X" or
// "--reasoning-parser=X"; "" when there is none or it is empty.
func reasoningParser(args []string) string {
	p := ""
	for i, a := range args {
		a = strings.TrimSpace(a)
		switch {
		case a == "--reasoning-parser" && i+1 < len(args):
			p = strings.TrimSpace(args[i+1])
		case strings.HasPrefix(a, "--reasoning-parser="):
			p = strings.TrimSpace(strings.TrimPrefix(a, "--reasoning-parser="))
		}
	}
	if strings.HasPrefix(p, "-") {
		return ""
	}
	return p
}

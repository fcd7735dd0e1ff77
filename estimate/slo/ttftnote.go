package slo

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// reasoningTTFTNote says what check's TTFT means for a model whose chat
// output starts with reasoning streamed outside `content`
// (vllm.ReasoningStreamsFirst: gpt-oss's harmony analysis channel, or a
// --reasoning-parser in vllm.extra_args), and "" for any other.
//
// Check predicts the time to the first generated token. That is what
// `vllm bench serve` times whatever the model (its first chunk with
// `choices`, the chat role chunk included, which vLLM sends with the first
// token: vllm.Release.FirstChunkAtFirstToken). Clients that time the first
// non-empty text or content (SGLang's bench_serving, genai-perf, chat front
// ends) see the reasoning first, one decode step per reasoning token; how
// many the model writes depends on the prompt and is not in the spec, so
// the note names the mechanism rather than a number (issue #28; the clients'
// sources in docs/ttft-client-timing.md).
func reasoningTTFTNote(in *input.Input) string {
	if in.Model == nil {
		return ""
	}
	var args []string
	if d := in.Resolved(); d != nil && d.Spec != nil {
		args = d.Spec.VLLM.ExtraArgs
	}
	first, what, _ := vllm.ReasoningStreamsFirst(in.Model.ModelType, args)
	if !first {
		return ""
	}
	return "TTFT is the time to the first generated token, which is what vllm bench serve times (its first streamed chunk, " +
		"whatever it carries); on the chat endpoint " + what + ", so a client that times the first non-empty content " +
		"(SGLang's bench_serving, genai-perf, most chat front ends) sees that TTFT plus one TPOT per reasoning token"
}

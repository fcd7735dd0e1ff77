package perf

import "github.com/vlaunch/vlaunch/vllm"

// UseIngestRounds switches on the API server's event-loop passes in the
// simulated front end (sim.Frontend.Rounds): where vLLM's handler awaits
// the tokenizer after its synchronous ingest (vllm.IngestAwaitsTokenizer),
// the requests of one pass reach the engine together when it ends, and the
// streamed tokens wait for the whole pass. Off: trialled on 2026-12-06
// (issue #28) and not adopted — it reproduces what the public vLLM bursts
// show (a 1,000-prompt burst's P99 TTFT 1.1–1.25 × its mean, not the 2 × of
// requests released one by one; GLM-4.5-Air's burst TPOT 42 -> 88 ms
// against 134 measured), but with one global chat-template parse
// (FrontendChatTemplateS, timed on Qwen3's template) every model's burst
// pays 14 ms a request, where the bursts show about 5 ms (Qwen3-2507),
// 13 (GLM-4.5-Air) and 15 (DeepSeek-R1-0528): the calibration's criterion
// 0.2732 -> 0.2866 with frontend_request_s refitted (to its 0.1 ms bound;
// 0.2816 and 0.2838 with the parse at 7 and 10 ms: not the parse alone),
// calibration 135 -> 129–131 of 155 within ±30%, the GLM holdout source 17
// -> 12 of 37. The numbers: docs/calibration-analysis.md ("Event-loop
// passes"). A per-template parse cost would be the next step — but timing
// the templates of the bursts' families (tools/chattemplate) found them
// alike (12.5–14 ms), so the bursts' 5–15 ms spread is not the template's.
// Re-checked with the held-out Qwen3-14B bursts added: holdout 83 of 207
// either way, calibration 137 -> 132 of 157, criterion 0.2718 -> 0.2890.
var UseIngestRounds = false

// IngestRounds reports whether the simulated front end of an engine
// serving a model of type modelType runs its ingests in event-loop passes
// (UseIngestRounds and vllm.IngestAwaitsTokenizer).
func IngestRounds(modelType string) bool {
	return UseIngestRounds && vllm.IngestAwaitsTokenizer(modelType)
}

package calibrate

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/spec"
)

// The endpoint a result's client called: the chat endpoint costs the API
// server the chat template's parse per request (perf.Efficiency.
// ChatTemplateS, slo.ApplyEngine) and, for gpt-oss, skips the tokenizer's
// micro-batching wait (perf.TokenizerBatchWait); the completions endpoint
// does neither. A result that records its endpoint is replayed with it,
// whatever the spec's workload.api says (the spec describes the
// deployment; the result, what was run against it); one that records none
// is replayed with the spec's (chat unless workload.api says completions).

// resultAPI is the endpoint the result's client recorded calling
// (spec.APIChat or spec.APICompletions) and the key that says it; "" when
// it records none calibrate reads.
//
//   - vllm bench serve and benchmarks/benchmark_serving.py save --backend
//     as "backend" (bench.Result.Backend, else "endpoint_type"): "vllm" and
//     "openai" post to /v1/completions, "openai-chat" to
//     /v1/chat/completions (ASYNC_REQUEST_FUNCS in vllm-project/vllm
//     vllm/benchmarks/lib/endpoint_request_func.py at 02cfb534 and
//     benchmarks/backend_request_func.py at 01184130).
//   - GenAI-Perf and AIPerf save the endpoint type in input_config
//     (bench.Result.Backend: endpoint.type or endpoint_type): "chat" or
//     "completions".
//
// Other clients' backends ("sglang", a Triton "kserve") say no OpenAI
// endpoint vLLM serves, so they are not read.
func resultAPI(r *bench.Result) (api, key string) {
	b := strings.ToLower(strings.TrimSpace(r.Backend))
	switch r.Format {
	case bench.FormatVLLM, bench.FormatVLLMScript:
		key = fmt.Sprintf("backend %q", r.Backend)
		switch b {
		case "openai-chat":
			return spec.APIChat, key
		case "vllm", "openai":
			return spec.APICompletions, key
		}
	case bench.FormatAIPerf, bench.FormatGenAIPerf:
		key = fmt.Sprintf("endpoint type %q", r.Backend)
		switch b {
		case "chat":
			return spec.APIChat, key
		case "completions":
			return spec.APICompletions, key
		}
	}
	return "", ""
}

// endpointFor is the endpoint r is replayed with, given the spec's
// workload.api (specAPI, "" meaning chat), and the report's words for it
// ("" when the result records none: the spec's, as before).
func endpointFor(specAPI string, r *bench.Result) (api, text string) {
	api, key := resultAPI(r)
	if api == "" {
		return specAPI, ""
	}
	ep := map[string]string{spec.APIChat: "/v1/chat/completions", spec.APICompletions: "/v1/completions"}
	text = fmt.Sprintf("endpoint %s (the result's %s)", ep[api], key)
	specEP := ep[spec.APICompletions]
	if (spec.Workload{API: specAPI}).Chat() {
		specEP = ep[spec.APIChat]
	}
	if specEP != ep[api] {
		text += ", not the spec's " + specEP
	}
	return api, text
}

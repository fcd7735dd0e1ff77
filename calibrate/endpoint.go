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

// otherEngine refuses a result whose client says it measured a server
// other than vLLM (qa44c F4: a printed summary with "Backend: sglang" was
// fitted as vLLM without a word). The clients' --backend names the server
// as well as the endpoint: vLLM's benchmarks/backend_request_func.py
// (ASYNC_REQUEST_FUNCS at v0.9.2) has tgi, lmdeploy, deepspeed-mii,
// tensorrt-llm, scalellm, sglang and llama.cpp beside vllm and openai*;
// SGLang's bench_serving has sglang, sglang-native, sglang-oai,
// sglang-oai-chat, lmdeploy, trt and others beside vllm and vllm-chat.
// vLLM's constants fitted to another engine would mislead check and plan,
// and vlaunch's SGLang engine model (sglang_eager_per_layer_s) is the global
// fit's, not a spec's: the result is left out, and the report says why.
// A backend calibrate does not know ("openai" against any server) is read
// as vLLM, as the spec says.
func otherEngine(r *bench.Result) error {
	b := strings.ToLower(strings.TrimSpace(r.Backend))
	engine := ""
	switch {
	case strings.HasPrefix(b, "sglang"):
		engine = "SGLang"
	case b == "tgi":
		engine = "Text Generation Inference"
	case b == "lmdeploy":
		engine = "LMDeploy"
	case b == "deepspeed-mii":
		engine = "DeepSpeed-MII"
	case b == "tensorrt-llm" || b == "trt":
		engine = "TensorRT-LLM"
	case b == "scalellm":
		engine = "ScaleLLM"
	case b == "llama.cpp":
		engine = "llama.cpp"
	}
	if engine == "" || (r.Format == bench.FormatAIPerf || r.Format == bench.FormatGenAIPerf) {
		return nil
	}
	return fmt.Errorf("the run measured %s, not vLLM (the result's backend %q): calibrate fits vLLM's constants to the spec's vLLM deployment, and a fit to another engine would mislead check and plan", engine, clipBackend(r.Backend))
}

// clipBackend bounds the backend quoted in a message.
func clipBackend(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

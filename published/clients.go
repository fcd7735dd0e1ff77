package published

// Benchmark clients: which streamed chunk each one's TTFT stops at. A row's
// TTFT is the prefill (and what precedes it) only when that chunk leaves
// with the first generated token; a client that waits for the first
// non-empty text or content also waits out every generated token that
// carries none — on vLLM's chat endpoint, a reasoning model's reasoning
// (vllm.ReasoningStreamsFirst). The sources are quoted in
// docs/ttft-client-timing.md.

// TTFTStop is the streamed chunk at which a client stops its TTFT clock.
type TTFTStop int

const (
	// StopUnknown: the client's rule was not read.
	StopUnknown TTFTStop = iota
	// StopFirstChunk: the first streamed event that carries `choices`,
	// whatever its text (a role-only chat delta, a token that decodes to
	// nothing).
	StopFirstChunk
	// StopFirstContent: the first chunk with non-empty `text`
	// (completions) or `delta.content` (chat); reasoning_content does not
	// count.
	StopFirstContent
)

// Client is a benchmark tool a row's figures were measured with.
type Client struct {
	// Name is the value of a row's workload.client.
	Name string
	Stop TTFTStop
	// RangeAround says how the client's random dataset reads a range ratio
	// r: true, lengths uniform in [L·(1−r), L·(1+r)] around the nominal L
	// (the mean is L); false, in [L·r, L] (SGLang's bench_serving, and
	// every row that does not name its client: the mean is L·(1+r)/2).
	RangeAround bool
	// Source is where the rules are read (repository, commit, file, function).
	Source string
}

// Clients are the clients rows may name.
var Clients = []Client{
	{Name: "vllm-bench-serve", Stop: StopFirstChunk, RangeAround: true,
		Source: "vllm-project/vllm@02cfb534 vllm/benchmarks/lib/endpoint_request_func.py async_request_openai_completions and " +
			"async_request_openai_chat_completions (first_chunk_received on the first event with choices: \"Note that text could be empty " +
			"here e.g. for special tokens\"); the same functions' earlier `if ttft == 0.0` form in benchmarks/backend_request_func.py " +
			"(benchmark_serving.py) likewise; range ratio: vllm-project/vllm@0056b87f vllm/benchmarks/datasets.py " +
			"RandomDataset.get_sampling_params (input_low = floor(L × (1 − range_ratio)), input_high = ceil(L × (1 + range_ratio)), " +
			"the same for the output; range_ratio in [0, 1))"},
	{Name: "sglang-bench-serving", Stop: StopFirstContent,
		Source: "sgl-project/sglang@0033168f python/sglang/bench_serving.py async_request_openai_completions " +
			"(`if data[\"choices\"][0][\"text\"]:`) and async_request_openai_chat_completions (`if content:` on delta.content); " +
			"range ratio: the same file's random dataset, randint(L × range_ratio, L)"},
	{Name: "genai-perf", Stop: StopFirstContent,
		Source: "triton-inference-server/perf_analyzer@00168fe7 genai-perf/genai_perf/profile_data_parser/llm_profile_data_parser.py " +
			"_preprocess_response (\"Remove responses without any content\") before _parse_requests' ttft = res_timestamps[0] - req_timestamp"},
	{Name: "inference-perf", Stop: StopFirstContent,
		Source: "kubernetes-sigs/inference-perf@35d21d64 inference_perf/apis/streaming_parser.py parse_sse_stream (chunk_times for " +
			"content-bearing chunks only); @11db4a8f inference_perf/apis/completion.py (completion text); later versions anchor TTFT at " +
			"the first token of either channel (#559)"},
}

// ClientNamed returns the client a row's workload.client names.
func ClientNamed(name string) (Client, bool) {
	for _, c := range Clients {
		if c.Name == name {
			return c, true
		}
	}
	return Client{}, false
}

// The endpoints a row's client called (workload.api).
const (
	APIChat        = "chat"        // /v1/chat/completions
	APICompletions = "completions" // /v1/completions
	APINative      = "native"      // an engine's own endpoint (SGLang /generate, TensorRT-LLM's)
)

var apis = set(APIChat, APICompletions, APINative)

// clientProblems checks a workload's client and api against the known ones.
func clientProblems(w Workload) []string {
	var p []string
	if w.Client != "" {
		if _, ok := ClientNamed(w.Client); !ok {
			p = append(p, "workload.client "+quote(w.Client)+" is not one of published.Clients")
		}
	}
	if w.API != "" && !apis[w.API] {
		p = append(p, "workload.api "+quote(w.API)+" is not chat, completions or native")
	}
	return p
}

func quote(s string) string { return "\"" + s + "\"" }

package bench

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Format names the client that wrote a result.
type Format string

// The formats Parse reads.
const (
	FormatVLLM       Format = "vllm bench serve"
	FormatVLLMScript Format = "vllm benchmark_serving.py"
	FormatSGLang     Format = "sglang bench_serving"
	FormatGuideLLM   Format = "guidellm"
	FormatAIPerf     Format = "aiperf"
	FormatGenAIPerf  Format = "genai-perf"
	// FormatInferencePerf: kubernetes-sigs/inference-perf lifecycle
	// reports (llm-d's published benchmarks).
	FormatInferencePerf Format = "inference-perf"
	// FormatLLMPerf: ray-project/llmperf summary files.
	FormatLLMPerf Format = "llmperf"
)

// Result is one benchmark run, in the client's own units (latencies in
// milliseconds), mapped to the workload it measured.
type Result struct {
	// Source is the file the result came from; Record its 1-based position
	// there (a JSONL line, or a GuideLLM report's benchmark).
	Source string `json:"source"`
	Record int    `json:"record"`
	// Records is how many results the file held.
	Records int `json:"-"`
	// FileSHA256 is the hex SHA-256 of the file's bytes as read: two files
	// with the same are copies of one another (calibrate counts them once).
	FileSHA256 string `json:"-"`
	Format     Format `json:"format"`
	// Label, Backend, Model and Date are what the client recorded.
	Label   string `json:"label,omitempty"`
	Backend string `json:"backend,omitempty"`
	Model   string `json:"model,omitempty"`
	Date    string `json:"date,omitempty"`
	Load    Load   `json:"load"`
	Shape   Shape  `json:"shape"`
	// Completed and Failed count the measured requests.
	Completed int     `json:"completed"`
	Failed    int     `json:"failed,omitempty"`
	DurationS float64 `json:"duration_s,omitempty"`
	// Throughputs over the run (0 = not recorded).
	OutputTokPerS  float64 `json:"output_tok_per_s,omitempty"`
	TotalTokPerS   float64 `json:"total_tok_per_s,omitempty"`
	RequestsPerS   float64 `json:"requests_per_s,omitempty"`
	MeanConcurrent float64 `json:"mean_concurrency,omitempty"`
	// Latency statistics in milliseconds. TPOT excludes the first token
	// (vLLM's and SGLang's definition); ITL is the gap between streamed
	// chunks.
	TTFT Stat `json:"ttft_ms"`
	TPOT Stat `json:"tpot_ms"`
	ITL  Stat `json:"itl_ms"`
	E2E  Stat `json:"e2e_ms"`
	// SpecAcceptance is the mean acceptance length of speculative decoding
	// (tokens per verify step, bonus included) when the run used it, else 0.
	SpecAcceptance float64 `json:"spec_acceptance_length,omitempty"`
	// Metadata are keys the client stored for the user (vLLM --metadata).
	Metadata map[string]string `json:"metadata,omitempty"`
	// Notes say what the mapping assumed.
	Notes []string `json:"notes,omitempty"`
	// concUnstated says the client recorded no concurrency cap, set or
	// not (arrivals.concStated): a burst is then an inference, which
	// littlesLaw checks against the result's own figures.
	concUnstated bool
}

// Name is how messages refer to the result: the file, and the record when
// the file holds several.
func (r *Result) Name() string {
	if r.Records > 1 {
		return fmt.Sprintf("%s#%d", r.Source, r.Record)
	}
	return r.Source
}

// LoadKind is how requests arrived.
type LoadKind string

// Load kinds.
const (
	// LoadClosedLoop: Concurrency sessions, each sending its next request
	// when one finishes, until Prompts were sent (vLLM --max-concurrency N
	// with request rate inf).
	LoadClosedLoop LoadKind = "closed-loop"
	// LoadBurst: Prompts requests sent at once with no cap.
	LoadBurst LoadKind = "burst"
	// LoadPoisson: Poisson arrivals at RatePerS.
	LoadPoisson LoadKind = "poisson"
	// LoadCapped: open-loop arrivals at RatePerS (Poisson, or gamma
	// with shape Burstiness when it is set) held by the client to at
	// most Concurrency requests in flight: vLLM's bench serve and
	// SGLang's bench_serving with a finite --request-rate and
	// --max-concurrency (a request waits for a semaphore slot, and its
	// latencies are timed from the send, not the arrival:
	// sim.Config.ClientCap).
	LoadCapped LoadKind = "capped-open-loop"
	// LoadGamma: arrivals at RatePerS whose gaps are gamma-distributed
	// with shape Burstiness (vLLM's --burstiness ≠ 1; sim.Config.Burstiness).
	LoadGamma LoadKind = "gamma"
	// LoadOther is an arrival pattern vlaunch does not simulate
	// (Unsupported says which).
	LoadOther LoadKind = "other"
)

// Load is the arrival pattern of a run.
type Load struct {
	Kind        LoadKind `json:"kind"`
	Concurrency int      `json:"concurrency,omitempty"`
	RatePerS    float64  `json:"rate_per_s,omitempty"`
	// Burstiness is the gamma shape of the gaps between arrivals
	// (LoadGamma, and LoadCapped when not Poisson); 0 = Poisson.
	Burstiness float64 `json:"burstiness,omitempty"`
	// Prompts is the number of requests the run sent (measured ones).
	Prompts int `json:"prompts"`
	// Unsupported says why a LoadOther run cannot be simulated.
	Unsupported string `json:"unsupported,omitempty"`
}

// String describes the load for reports.
func (l Load) String() string {
	switch l.Kind {
	case LoadClosedLoop:
		return fmt.Sprintf("closed loop of %d sessions, %d prompts", l.Concurrency, l.Prompts)
	case LoadBurst:
		return fmt.Sprintf("burst of %d prompts at once", l.Prompts)
	case LoadPoisson:
		return fmt.Sprintf("Poisson arrivals at %s requests/s, %d prompts", strconv.FormatFloat(l.RatePerS, 'g', 4, 64), l.Prompts)
	case LoadGamma:
		return fmt.Sprintf("gamma arrivals (burstiness %s) at %s requests/s, %d prompts", strconv.FormatFloat(l.Burstiness, 'g', 4, 64),
			strconv.FormatFloat(l.RatePerS, 'g', 4, 64), l.Prompts)
	case LoadCapped:
		arr := "Poisson arrivals"
		if l.Burstiness > 0 {
			arr = "gamma arrivals (burstiness " + strconv.FormatFloat(l.Burstiness, 'g', 4, 64) + ")"
		}
		return fmt.Sprintf("%s at %s requests/s held to %d in flight by the client, %d prompts", arr,
			strconv.FormatFloat(l.RatePerS, 'g', 4, 64), l.Concurrency, l.Prompts)
	}
	return "not simulated: " + l.Unsupported
}

// Shape is the request shape: mean tokens per request as sent and received
// (what the totals divided by the requests give), and the lengths the
// client was asked for when it recorded them.
type Shape struct {
	InputTokens   float64 `json:"input_tokens"`
	OutputTokens  float64 `json:"output_tokens"`
	Dataset       string  `json:"dataset,omitempty"`
	NominalInput  int     `json:"nominal_input_tokens,omitempty"`
	NominalOutput int     `json:"nominal_output_tokens,omitempty"`
	// InputCV and OutputCV are the coefficients of variation (standard
	// deviation over mean) of the requests' lengths, where the client saved
	// the per-request lists (readLengths); Known says whether it did.
	InputCV, OutputCV           float64 `json:"-"`
	InputCVKnown, OutputCVKnown bool    `json:"-"`
	// CVFromRatio says the coefficients come from the client's random
	// dataset (its range ratio: randomSpread), not from saved lengths.
	CVFromRatio bool `json:"-"`
}

// Stat is a latency summary: any of mean, median, std and percentiles, by
// the names the clients use ("mean", "median", "std", "p99", "p99.9").
type Stat map[string]float64

// Get returns one statistic.
func (s Stat) Get(name string) (float64, bool) {
	v, ok := s[name]
	return v, ok
}

// Names lists the statistics present, in a stable order.
func (s Stat) Names() []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return statRank(out[i]) < statRank(out[j]) })
	return out
}

// statRank orders mean, median, std, then percentiles ascending.
func statRank(name string) float64 {
	switch name {
	case "mean":
		return -3
	case "median":
		return -2
	case "std":
		return -1
	}
	v, _ := strconv.ParseFloat(strings.TrimPrefix(name, "p"), 64)
	return v
}

package sim

import "sort"

// noTPOT marks a request with at most one output token: it has no time
// per output token. vLLM's bench serve (vllm/benchmarks/serve.py at
// v0.11.0, calculate_metrics) appends a request's TPOT, (latency − TTFT)
// / (output_len − 1), only when output_len > 1 and averages over those
// requests; SGLang's bench_serving does the same. A one-token request
// must not enter the mean as a TPOT of 0.
const noTPOT = -1.0

// tpotPercentiles is the TPOT distribution over the requests that have
// one: v sorted ascending, the noTPOT marks (negative) at its front.
func tpotPercentiles(v []float64) Percentiles {
	return percentilesOf(v[sort.SearchFloat64s(v, 0):])
}

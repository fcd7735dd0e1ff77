package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any bytes give results or an error, never a panic, and every
// result is usable downstream (positive counts and shape, a known load).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"duration":1,"completed":1,"total_input_tokens":1,"total_output_tokens":1,"request_rate":Infinity,"total_output_tokens_retokenized":1}`))
	f.Add([]byte(`{"benchmarks":[{"type_":"generative_benchmark","args":{"strategy":{"type_":"poisson","rate":NaN}}}]}`))
	// AIPerf / GenAI-Perf shapes: metric objects with units, the three
	// input_config layouts, a null error count, a non-time unit.
	f.Add([]byte(`{"request_throughput":{"unit":"requests/sec","avg":2},"request_count":{"unit":"requests","avg":10},"benchmark_duration":{"unit":"sec","avg":5},"total_osl":{"unit":"tokens","avg":100},"error_request_count":null,"time_to_first_token":{"unit":"ns","avg":1e6,"p50":NaN},"input_config":{"phases":[{"name":"profiling","type":"poisson","rate":2,"concurrency":0}]}}`))
	f.Add([]byte(`{"request_throughput":{"unit":"requests/sec","avg":0},"output_sequence_length":{"unit":"tokens","avg":50,"std":-1},"input_config":{"concurrency":4,"request_count":3,"request_rate":null}}`))
	f.Add([]byte(`{"request_throughput":{"unit":"x"},"request_count":{"avg":1e300},"input_config":{"loadgen":{"concurrency":2.5,"request_rate_mode":"concurrency_burst"}}}`))
	f.Add([]byte(`{"benchmarks":[{"type_":"generative_benchmark","duration":1,"config":{"strategy":{"type_":"concurrent","streams":2}},"metrics":{"request_totals":{"successful":1,"errored":0,"incomplete":0},"output_token_count":{"successful":{"mean":3}}}}]}`))
	f.Add([]byte("============ Serving Benchmark Result ============\nMax reqeuest concurrency: 0\nSuccessful requests: 1\n=====\n"))
	f.Add([]byte("============ Serving Benchmark Result ============\nSuccessful requests: 1\nBenchmark duration (s): 1\nTotal input tokens: 1\nTotal generated tokens: 1\nMedian TTFT (ms): -0\nMean TPOT (ms):"))
	f.Add([]byte(`[{"duration":1,"completed":1,"total_input_tokens":1,"total_output_tokens":1,"request_rate":"inf","endpoint_type":"openai","run_number":0},[],{"benchmarks":[]}]`))
	f.Add([]byte(`{"backend":"sglang","request_rate":"trace","duration":2,"completed":1,"total_input_tokens":1,"total_output_tokens":3,"server_info":{"a":1},"tag":null,"accept_length":null}`))
	// inference-perf shapes: a concurrent stage, a Prometheus report, a
	// null distribution, a non-numeric percentile, no throughput.
	f.Add([]byte(`{"benchmark_time_seconds":2,"load_summary":{"count":3,"requested_rate":3,"concurrency":2},"successes":{"count":3,"latency":{"time_to_first_token":{"mean":0.1,"p0.1":0.05,"median":0.1}},"throughput":{"output_tokens_per_sec":15,"requests_per_sec":1.5},"output_len":{"mean":10}},"failures":{"count":0}}`))
	f.Add([]byte(`{"load_summary":{},"successes":{"count":5,"rate":1,"queue_len":{"mean":0}},"failures":{}}`))
	f.Add([]byte(`{"load_summary":{"count":1e300,"concurrency":-1},"successes":{"count":1,"latency":null,"prompt_tokens":{"total":1,"pNaN":1},"output_len":{"mean":Infinity}},"failures":null}`))
	f.Add([]byte(`{"load_summary":{"count":2,"requested_rate":"inf"},"successes":{"count":2,"throughput":{"requests_per_sec":0},"output_len":{"mean":1}},"failures":{"count":0}}`))
	// LLMPerf summaries: numbers as strings, a non-numeric string, no
	// per-minute rate.
	f.Add([]byte(`{"num_concurrent_requests":"2","results_ttft_s_quantiles_p50":"0.1","results_number_output_tokens_mean":5,"results_num_requests_started":3,"results_num_completed_requests":"3","results_num_completed_requests_per_min":60}`))
	f.Add([]byte(`{"num_concurrent_requests":1e20,"results_ttft_s_mean":"NaN","results_number_output_tokens_mean":"1e400","results_num_completed_requests":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		for _, r := range rs {
			if r.Completed <= 0 || !(r.DurationS > 0) || !(r.Shape.OutputTokens > 0) || !(r.OutputTokPerS > 0) {
				t.Fatalf("unusable result accepted: %+v", r)
			}
			switch r.Load.Kind {
			case LoadClosedLoop, LoadBurst, LoadPoisson, LoadCapped, LoadGamma, LoadOther:
			default:
				t.Fatalf("unknown load kind %q", r.Load.Kind)
			}
			if r.Load.Kind == LoadOther && r.Load.Unsupported == "" {
				t.Fatalf("unsupported load without a reason: %+v", r.Load)
			}
		}
	})
}

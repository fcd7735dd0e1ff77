package bench

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestParseInferencePerfReal reads two published inference-perf reports
// (provenance in testdata/README.md) and checks every figure against the
// file: seconds become milliseconds, median is p50, the lengths are the
// per-request means, the duration is the successes over requests_per_sec
// (neither file records benchmark_time_seconds), and inter_token_latency
// (per token, zero inside a chunk) is not taken as vLLM's ITL.
func TestParseInferencePerfReal(t *testing.T) {
	for _, c := range []struct {
		file                     string
		load                     Load
		completed                int
		in, out, reqPerS, outTok float64
		ttftMean, ttftMedian     float64 // ms
		tpotMedian, e2eP99       float64 // ms
	}{
		{
			// A stage of a constant-rate sweep (config.yaml: load.type
			// constant): 60 requests at 1/s.
			file: "inference-perf-stage0-constant.json",
			load: Load{Kind: LoadOther, Prompts: 60, Unsupported: "an inference-perf rate stage at 1/s: the report does not record whether " +
				"the arrivals were at constant intervals (load.type constant, the default) or Poisson (poisson); that is in the run's config"},
			completed: 60, in: 201.51666666666668, out: 62.46666666666667, reqPerS: 1.0037959719629008, outTok: 62.70378838194921,
			ttftMean: 37.35178913145016, ttftMedian: 36.60908149322495, tpotMedian: 5.779756271450008, e2eP99: 808.3908353000879,
		},
		{
			// llm-d's P/D guide: the summary over its concurrency stages.
			file: "inference-perf-llmd-pd-summary.json",
			load: Load{Kind: LoadOther, Prompts: 10500, Unsupported: "inference-perf's summary over all of a run's stages " +
				"(summary_lifecycle_metrics.json): give a stage_N_lifecycle_metrics.json"},
			completed: 10500, in: 1030.1980952380952, out: 976.13, reqPerS: 13.241470097289648, outTok: 12925.396206067344,
			ttftMean: 1063.9281511114733, ttftMedian: 700.6767939892597, tpotMedian: 16.228663841495287, e2eP99: 23146.584392286606,
		},
	} {
		data, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := Parse(c.file, data)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		r := rs[0]
		if len(rs) != 1 || r.Format != FormatInferencePerf || r.Load != c.load || r.Completed != c.completed || r.Failed != 0 {
			t.Errorf("%s: %d results, format %q, load %+v, completed %d failed %d", c.file, len(rs), r.Format, r.Load, r.Completed, r.Failed)
		}
		if !near(r.Shape.InputTokens, c.in) || !near(r.Shape.OutputTokens, c.out) {
			t.Errorf("%s: shape %+v", c.file, r.Shape)
		}
		if !near(r.RequestsPerS, c.reqPerS) || !near(r.OutputTokPerS, c.outTok) || !near(r.DurationS, float64(c.completed)/c.reqPerS) {
			t.Errorf("%s: %g req/s, %g tok/s, %g s", c.file, r.RequestsPerS, r.OutputTokPerS, r.DurationS)
		}
		if !near(r.TTFT["mean"], c.ttftMean) || !near(r.TTFT["median"], c.ttftMedian) || !near(r.TPOT["median"], c.tpotMedian) ||
			!near(r.E2E["p99"], c.e2eP99) || r.ITL != nil {
			t.Errorf("%s: TTFT %v TPOT %v E2E %v ITL %v", c.file, r.TTFT, r.TPOT, r.E2E, r.ITL)
		}
		if _, ok := r.TTFT["min"]; ok {
			t.Errorf("%s: min read as a statistic: %v", c.file, r.TTFT)
		}
		if _, ok := r.TTFT["p0.1"]; !ok {
			t.Errorf("%s: p0.1 not read: %v", c.file, r.TTFT)
		}
	}
}

// TestParseInferencePerfLoads covers the stage kinds (ReportGenerator and
// summarize_requests) and the later layout: benchmark_time_seconds,
// prompt_tokens with totals, null TTFT/TPOT without streaming, failures.
func TestParseInferencePerfLoads(t *testing.T) {
	mk := func(load string) string {
		return `{"benchmark_time_seconds":50,"load_summary":` + load + `,` +
			`"successes":{"count":98,"latency":{"request_latency":{"mean":2,"min":1,"median":1.5,"p90":3,"max":4},` +
			`"time_to_first_token":null,"time_per_output_token":null,"inter_token_latency":null},` +
			`"throughput":{"input_tokens_per_sec":196,"output_tokens_per_sec":196,"total_tokens_per_sec":392,"requests_per_sec":1.96},` +
			`"prompt_tokens":{"total":9800,"cached":0,"uncached":9800,"mean":100,"min":90,"max":110,"median":100},` +
			`"output_len":{"mean":100,"min":100,"max":100,"median":100},"token_count_mismatches":0},` +
			`"failures":{"count":2,"request_latency":{"mean":1},"prompt_tokens":null,"by_label":{}}}`
	}
	for _, c := range []struct {
		load string
		want Load
	}{
		// A concurrent stage: rate = num_requests (main.py), concurrency.
		{`{"count":100,"send_duration":0.99,"requested_rate":100,"achieved_rate":101,"concurrency":8}`, Load{Kind: LoadClosedLoop, Concurrency: 8, Prompts: 100}},
		{`{"count":100,"send_duration":0.99,"requested_rate":100,"achieved_rate":101,"concurrency":100}`, Load{Kind: LoadBurst, Prompts: 100}},
		// A session-replay stage: its session rate, below the requests.
		{`{"count":100,"send_duration":40,"requested_rate":0,"achieved_rate":2.5,"concurrency":4}`, Load{Kind: LoadOther, Prompts: 100,
			Unsupported: "an inference-perf stage of 4 concurrent sessions (session replay)"}},
		{`{"count":100,"send_duration":49.5,"requested_rate":2,"achieved_rate":2.02}`, Load{Kind: LoadOther, Prompts: 100,
			Unsupported: "an inference-perf rate stage at 2/s: the report does not record whether the arrivals were at constant intervals " +
				"(load.type constant, the default) or Poisson (poisson); that is in the run's config"}},
		{`{"count":100,"schedule_delay":{"mean":0.001}}`, Load{Kind: LoadOther, Prompts: 100,
			Unsupported: "inference-perf's summary over all of a run's stages (summary_lifecycle_metrics.json): give a stage_N_lifecycle_metrics.json"}},
	} {
		rs, err := Parse("x.json", []byte(mk(c.load)))
		if err != nil {
			t.Errorf("%s: %v", c.load, err)
			continue
		}
		r := rs[0]
		if r.Load != c.want {
			t.Errorf("%s: load %+v, want %+v", c.load, r.Load, c.want)
		}
		// benchmark_time_seconds is the duration; 98 succeeded, 2 failed;
		// request_latency 1.5 s median is 1500 ms; null TTFT stays absent.
		if r.DurationS != 50 || r.Completed != 98 || r.Failed != 2 || !near(r.E2E["median"], 1500) || r.TTFT != nil || r.TPOT != nil ||
			r.Shape.InputTokens != 100 || r.Shape.OutputTokens != 100 {
			t.Errorf("%s: %+v", c.load, r)
		}
	}
	for _, c := range []struct{ name, data, want string }{
		{"prometheus report", `{"load_summary":{},"successes":{"count":649,"rate":8.2,"prompt_len":{"mean":1492,"rate":1428},` +
			`"queue_len":{"mean":0},"request_latency":{"mean":4.6}},"failures":{}}`, "Prometheus (model server) metrics report"},
		{"negative latency", strings.Replace(mk(`{"count":100}`), `"median":1.5`, `"median":-1.5`, 1), "negative median"},
		{"bad percentile", strings.Replace(mk(`{"count":100}`), `"p90":3`, `"p900":3`, 1), `"p900" is not a percentile`},
		{"string stat", strings.Replace(mk(`{"count":100}`), `"p90":3`, `"p90":"3"`, 1), "want a number"},
		{"throughput contradicts", strings.Replace(mk(`{"count":100}`), `"output_tokens_per_sec":196`, `"output_tokens_per_sec":400`, 1), "disagrees"},
		{"no successes", strings.Replace(mk(`{"count":100}`), `"count":98`, `"count":0`, 1), "no request completed"},
	} {
		_, err := Parse("x.json", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// The input length: the server's prompt_tokens mean, else its total
	// over the successes (2026-05 layout, beside the client's prompt_len),
	// else prompt_len. The llm-d-benchmark fixture's figures: the server
	// counted 7198 tokens where the client counted 4477.
	for _, c := range []struct {
		from, to string
		want     float64
	}{
		{`"prompt_tokens":{"total":9800,"cached":0,"uncached":9800,"mean":100,"min":90,"max":110,"median":100}`,
			`"prompt_len":{"mean":4476.810126582279},"prompt_tokens":{"mean":7197.974683544304}`, 7197.974683544304},
		{`"prompt_tokens":{"total":9800,"cached":0,"uncached":9800,"mean":100,"min":90,"max":110,"median":100}`,
			`"prompt_len":{"mean":80},"prompt_tokens":{"total":11760,"cached":0,"uncached":11760}`, 120},
		{`"prompt_tokens":{"total":9800,"cached":0,"uncached":9800,"mean":100,"min":90,"max":110,"median":100}`,
			`"prompt_len":{"mean":80}`, 80},
	} {
		rs, err := Parse("x.json", []byte(strings.Replace(mk(`{"count":100}`), c.from, c.to, 1)))
		if err != nil || !near(rs[0].Shape.InputTokens, c.want) {
			t.Errorf("%s: %v %+v", c.to, err, rs)
		}
	}
	// The duration falls back to the successes over requests_per_sec.
	rs, err := Parse("x.json", []byte(strings.Replace(mk(`{"count":100}`), `"benchmark_time_seconds":50,`, "", 1)))
	if err != nil || !near(rs[0].DurationS, 98/1.96) {
		t.Errorf("no benchmark_time_seconds: %v %+v", err, rs)
	}
	if got := fmt.Sprint(rs[0].Notes); !strings.Contains(got, "requests_per_sec") {
		t.Errorf("notes %s", got)
	}
}

package bench

import (
	"os"
	"strings"
	"testing"
)

// TestParseLLMPerfReal reads a published LLMPerf summary (provenance in
// testdata/README.md): --num-concurrent-requests 5 over 50 requests is a
// closed loop of 5; seconds become milliseconds; p50 is the median; the
// duration is the completed requests over the per-minute rate (50 ×
// 60 / 202.3737797988183 = 14.824 s), which with the mean output length
// gives back the file's 335.4 tok/s; the token counts' min/max strings
// are accepted; inter_token_latency_s (TTFT included) is not taken as TPOT.
func TestParseLLMPerfReal(t *testing.T) {
	data, err := os.ReadFile("testdata/llmperf-2026-trainium-summary.json")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Parse("s.json", data)
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if len(rs) != 1 || r.Format != FormatLLMPerf || r.Model != "tinyLlama/TinyLlama-1.1B-Chat-v1.0" ||
		r.Load != (Load{Kind: LoadClosedLoop, Concurrency: 5, Prompts: 50}) || r.Completed != 50 || r.Failed != 0 {
		t.Errorf("%+v", r)
	}
	if !near(r.DurationS, 50*60/202.3737797988183) || !near(r.OutputTokPerS, 335.40081105324157) {
		t.Errorf("duration %g, %g tok/s", r.DurationS, r.OutputTokPerS)
	}
	if !near(r.Shape.InputTokens, 259.78) || !near(r.Shape.OutputTokens, 99.44) || r.Shape.NominalInput != 256 || r.Shape.NominalOutput != 100 {
		t.Errorf("shape %+v", r.Shape)
	}
	if !near(r.TTFT["mean"], 253.82229144015583) || !near(r.TTFT["median"], 241.66843249986414) || !near(r.TTFT["p99"], 587.4693769191432) ||
		!near(r.TTFT["std"], 146.5119196859053) || !near(r.E2E["median"], 1181.6258570015634) || r.TPOT != nil || r.ITL != nil {
		t.Errorf("TTFT %v E2E %v TPOT %v", r.TTFT, r.E2E, r.TPOT)
	}
	if _, ok := r.TTFT["min"]; ok {
		t.Errorf("min read as a statistic")
	}
}

// TestParseLLMPerfCases covers the load mapping and the strict reads.
func TestParseLLMPerfCases(t *testing.T) {
	base := `{"model":"m","num_concurrent_requests":4,"results_ttft_s_mean":0.1,"results_ttft_s_quantiles_p50":0.09,` +
		`"results_number_input_tokens_mean":100,"results_number_output_tokens_mean":50,"results_number_output_tokens_min":"10",` +
		`"results_num_requests_started":20,"results_number_errors":2,"results_mean_output_throughput_token_per_s":90,` +
		`"results_num_completed_requests":18,"results_num_completed_requests_per_min":108}`
	rs, err := Parse("x.json", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	// 18 completed at 108/min: 10 s; 18 × 50 tokens / 10 s = 90 tok/s.
	if r := rs[0]; r.Load != (Load{Kind: LoadClosedLoop, Concurrency: 4, Prompts: 20}) || r.Failed != 2 || !near(r.DurationS, 10) {
		t.Errorf("%+v", r)
	}
	for _, c := range []struct {
		name, from, to string
		load           Load
	}{
		{"concurrency above the requests", `"num_concurrent_requests":4`, `"num_concurrent_requests":32`, Load{Kind: LoadBurst, Prompts: 20}},
		{"no concurrency", `"num_concurrent_requests":4,`, ``, Load{Kind: LoadOther, Prompts: 20, Unsupported: "the summary does not record num_concurrent_requests"}},
		{"numbers as strings", `"results_num_completed_requests":18`, `"results_num_completed_requests":"18"`, Load{Kind: LoadClosedLoop, Concurrency: 4, Prompts: 20}},
	} {
		rs, err := Parse("x.json", []byte(strings.Replace(base, c.from, c.to, 1)))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if rs[0].Load != c.load {
			t.Errorf("%s: load %+v, want %+v", c.name, rs[0].Load, c.load)
		}
	}
	for _, c := range []struct{ name, from, to, want string }{
		{"bad string", `"10"`, `"ten"`, `want a number, got "ten"`},
		{"negative", `"results_ttft_s_mean":0.1`, `"results_ttft_s_mean":-0.1`, "negative"},
		{"bad quantile", `quantiles_p50`, `quantiles_pX`, "not a percentile"},
		{"fractional count", `"results_number_errors":2`, `"results_number_errors":2.5`, "want a whole number"},
		{"throughput contradicts", `"results_mean_output_throughput_token_per_s":90`, `"results_mean_output_throughput_token_per_s":200`, "disagrees"},
		{"nothing completed", `"results_num_completed_requests":18`, `"results_num_completed_requests":0`, "no request completed"},
	} {
		_, err := Parse("x.json", []byte(strings.Replace(base, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

package bench

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func parseFile(t *testing.T, name string) []Result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Parse(name, data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rs
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

// TestParseFormats pins what each client's file maps to: format, load,
// request shape and the statistics used downstream.
func TestParseFormats(t *testing.T) {
	type want struct {
		file          string
		record        int
		format        Format
		load          Load
		in, out       float64
		ttftMedian    float64
		tpotMedian    float64
		outTokPerS    float64
		nominalInput  int
		metadata      string
		noteFragments []string
	}
	for _, w := range []want{
		{file: "vllm-serve.json", record: 1, format: FormatVLLM, load: Load{Kind: LoadClosedLoop, Concurrency: 4, Prompts: 100},
			in: 228.4, out: 213.4, ttftMedian: 117.53, tpotMedian: 19.13, outTokPerS: 21340 / 108.42, metadata: "h200-a"},
		{file: "vllm-script-2025.json", record: 1, format: FormatVLLMScript, load: Load{Kind: LoadBurst, Prompts: 500},
			in: 4000, out: 200, ttftMedian: 61952.74, tpotMedian: 177.37, outTokPerS: 100000 / 132.7},
		{file: "vllm-script-2024.json", record: 1, format: FormatVLLMScript, load: Load{Kind: LoadPoisson, RatePerS: 2, Prompts: 500},
			in: 342460.0 / 496, out: 218257.0 / 496, ttftMedian: 48, tpotMedian: 20.9, outTokPerS: 218257 / 260.1},
		{file: "sglang.jsonl", record: 1, format: FormatSGLang, load: Load{Kind: LoadClosedLoop, Concurrency: 16, Prompts: 200},
			in: 1024, out: 1024, ttftMedian: 300, tpotMedian: 17, outTokPerS: 204800 / 80.0, nominalInput: 1024,
			noteFragments: []string{"neither the prompts sent"}},
		{file: "sglang.jsonl", record: 2, format: FormatSGLang, load: Load{Kind: LoadPoisson, RatePerS: 4, Prompts: 200},
			in: 1024, out: 1024, ttftMedian: 300, tpotMedian: 17, outTokPerS: 204800 / 52.0, nominalInput: 1024},
		{file: "guidellm.json", record: 1, format: FormatGuideLLM, load: Load{Kind: LoadClosedLoop, Concurrency: 1, Prompts: 42},
			in: 512, out: 256, ttftMedian: 54, tpotMedian: 12, outTokPerS: 40 * 256 / 60.0},
		{file: "guidellm.json", record: 2, format: FormatGuideLLM, load: Load{Kind: LoadClosedLoop, Concurrency: 8, Prompts: 152},
			in: 512, out: 256, ttftMedian: 72, tpotMedian: 15, outTokPerS: 150 * 256 / 60.0},
		{file: "guidellm.json", record: 3, format: FormatGuideLLM, load: Load{Kind: LoadOther, Prompts: 292, Unsupported: "requests at constant intervals, not Poisson"},
			in: 512, out: 256, ttftMedian: 81, tpotMedian: 18, outTokPerS: 290 * 256 / 60.0},
	} {
		rs := parseFile(t, w.file)
		r := rs[w.record-1]
		name := r.Name()
		if r.Format != w.format || r.Load != w.load {
			t.Errorf("%s: format %q load %+v, want %q %+v", name, r.Format, r.Load, w.format, w.load)
		}
		if !near(r.Shape.InputTokens, w.in) || !near(r.Shape.OutputTokens, w.out) || r.Shape.NominalInput != w.nominalInput {
			t.Errorf("%s: shape %+v, want %g in / %g out (nominal %d)", name, r.Shape, w.in, w.out, w.nominalInput)
		}
		if !near(r.TTFT["median"], w.ttftMedian) || !near(r.TPOT["median"], w.tpotMedian) || !near(r.OutputTokPerS, w.outTokPerS) {
			t.Errorf("%s: TTFT median %g TPOT median %g out %g tok/s, want %g %g %g", name, r.TTFT["median"], r.TPOT["median"], r.OutputTokPerS, w.ttftMedian, w.tpotMedian, w.outTokPerS)
		}
		if w.metadata != "" && r.Metadata["cluster"] != w.metadata {
			t.Errorf("%s: metadata %v, want cluster=%s", name, r.Metadata, w.metadata)
		}
		for _, f := range w.noteFragments {
			if !strings.Contains(strings.Join(r.Notes, "\n"), f) {
				t.Errorf("%s: notes %q lack %q", name, r.Notes, f)
			}
		}
	}
}

// TestParseStatistics checks every statistic key shape is read (p99.9,
// std) and that records of a multi-record file are named apart.
func TestParseStatistics(t *testing.T) {
	rs := parseFile(t, "sglang.jsonl")
	if got := rs[1].Name(); got != "sglang.jsonl#2" {
		t.Errorf("name %q", got)
	}
	if got := strings.Join(rs[0].ITL.Names(), " "); got != "mean median std p95 p99" {
		t.Errorf("ITL statistics %q", got)
	}
	g := parseFile(t, "guidellm.json")
	if _, ok := g[0].TTFT.Get("p99.9"); !ok {
		t.Errorf("GuideLLM p999 not read as p99.9: %v", g[0].TTFT.Names())
	}
	if e2e := g[0].E2E["mean"]; !near(e2e, 3100) {
		t.Errorf("GuideLLM request_latency (s) read as %g ms, want 3100", e2e)
	}
	if single := parseFile(t, "vllm-serve.json"); single[0].Name() != "vllm-serve.json" {
		t.Errorf("single-record name %q", single[0].Name())
	}
}

// TestParseRejects: each input is refused with a message naming the
// problem.
func TestParseRejects(t *testing.T) {
	base := `"date":"x","num_prompts":10,"request_rate":"inf","max_concurrency":2,"duration":10,"completed":10,"total_input_tokens":1000,"total_output_tokens":500,"output_throughput":50`
	for _, c := range []struct{ name, data, want string }{
		{"empty", ``, "no benchmark result"},
		{"not json", `{"duration":`, "not JSON"},
		{"array", `[1,2]`, "not a JSON object"},
		{"unknown client", `{"foo":1}`, "not a result of a client"},
		{"string number", `{` + strings.Replace(base, `"duration":10`, `"duration":"10"`, 1) + `}`, `"duration": want a number`},
		{"nan", `{` + strings.Replace(base, `"duration":10`, `"duration":NaN`, 1) + `}`, "not a finite number"},
		{"misspelt statistic", `{` + base + `,"mean_ttf_ms":3}`, `unknown metric "ttf"`},
		{"bad percentile", `{` + base + `,"p0_ttft_ms":3}`, "outside (0, 100]"},
		{"negative latency", `{` + base + `,"mean_ttft_ms":-3}`, "negative latency"},
		{"no completions", `{` + strings.Replace(base, `"completed":10`, `"completed":0`, 1) + `}`, "no request completed"},
		{"fractional count", `{` + strings.Replace(base, `"completed":10`, `"completed":9.5`, 1) + `}`, "whole number"},
		{"inconsistent throughput", `{` + strings.Replace(base, `"output_throughput":50`, `"output_throughput":80`, 1) + `}`, "disagrees"},
		{"no output", `{` + strings.Replace(base, `"total_output_tokens":500`, `"total_output_tokens":0`, 1) + `}`, "no output tokens"},
		{"percentiles out of order", `{` + base + `,"median_tpot_ms":30,"p99_tpot_ms":20}`, "p99 (20 ms) is below median"},
		{"bad rate", `{` + strings.Replace(base, `"request_rate":"inf"`, `"request_rate":"fast"`, 1) + `}`, "want a rate or inf"},
		{"guidellm other type", `{"benchmarks":[{"type_":"benchmark"}]}`, "generative_benchmark"},
		{"guidellm new layout", `{"benchmarks":[{"type_":"generative_benchmark","duration":5}]}`, "no args.strategy"},
	} {
		_, err := Parse("in.json", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestParseLoads covers the client semantics of rate and cap.
func TestParseLoads(t *testing.T) {
	mk := func(extra string) string {
		return `{"num_prompts":100,"duration":10,"completed":100,"total_input_tokens":1000,"total_output_tokens":500` + extra + `}`
	}
	for _, c := range []struct {
		extra string
		want  Load
	}{
		{`,"request_rate":"inf","max_concurrency":null`, Load{Kind: LoadBurst, Prompts: 100}},
		{`,"request_rate":"inf","max_concurrency":100`, Load{Kind: LoadBurst, Prompts: 100}},
		{`,"request_rate":"inf","max_concurrency":8`, Load{Kind: LoadClosedLoop, Concurrency: 8, Prompts: 100}},
		{`,"request_rate":5,"burstiness":1.0`, Load{Kind: LoadPoisson, RatePerS: 5, Prompts: 100}},
		{`,"request_rate":5,"burstiness":0.5`, Load{Kind: LoadOther, Prompts: 100, Unsupported: "gamma-distributed arrivals (burstiness 0.5), not Poisson"}},
		{`,"request_rate":5,"max_concurrency":8`, Load{Kind: LoadOther, Prompts: 100, Unsupported: "Poisson arrivals held to at most 8 requests in flight by the client"}},
		{`,"request_rate":"inf","ramp_up_strategy":"linear","ramp_up_start_rps":1,"ramp_up_end_rps":9`, Load{Kind: LoadOther, Prompts: 100, Unsupported: "the request rate ramps up (linear)"}},
		{``, Load{Kind: LoadOther, Prompts: 100, Unsupported: "the result does not record the request rate"}},
		{`,"request_rate":"inf","failed":4`, Load{Kind: LoadBurst, Prompts: 104}},
	} {
		rs, err := Parse("x.json", []byte(mk(c.extra)))
		if err != nil {
			t.Errorf("%s: %v", c.extra, err)
			continue
		}
		if rs[0].Load != c.want {
			t.Errorf("%s: load %+v, want %+v", c.extra, rs[0].Load, c.want)
		}
	}
}

func TestSanitize(t *testing.T) {
	in := `{"a": Infinity, "b": "NaN and Infinity", "c": -Infinity, "d": [NaN], "e": "x\"Infinity"}`
	want := `{"a": "Infinity", "b": "NaN and Infinity", "c": "-Infinity", "d": ["NaN"], "e": "x\"Infinity"}`
	if got := string(sanitize([]byte(in))); got != want {
		t.Errorf("sanitize:\n got %s\nwant %s", got, want)
	}
}

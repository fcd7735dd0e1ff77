package bench

import (
	"os"
	"strings"
	"testing"
)

// TestParsePrintedSummary: the block `vllm bench serve` prints is an input
// like its JSON result. vllm-serve-sharegpt.txt is the summary published in
// vllm PR #18566 (ShareGPT, 1000 prompts at an unlimited rate: a burst);
// the closed-loop and Poisson files follow vllm/benchmarks/serve.py's
// newer layout (Failed requests, Maximum request concurrency, Request rate
// configured, peak lines), with figures made consistent by hand.
func TestParsePrintedSummary(t *testing.T) {
	for _, tt := range []struct {
		file       string
		kind       LoadKind
		conc       int
		rate       float64
		prompts    int
		in, out    float64
		ttftP99    float64
		outTokPerS float64
	}{
		{"vllm-serve-sharegpt.txt", LoadBurst, 0, 0, 1000, 229.711, 203.068, 12666.73, 6582.87},
		{"vllm-serve-closed-loop.txt", LoadClosedLoop, 32, 0, 320, 1024, 128, 1893.77, 416.18},
		{"vllm-serve-poisson.txt", LoadPoisson, 0, 4, 602, 1000, 128, 231.05, 507.37},
	} {
		data, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := Parse(tt.file, data)
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: %v (%d results)", tt.file, err, len(rs))
		}
		r := rs[0]
		if r.Load.Kind != tt.kind || r.Load.Concurrency != tt.conc || r.Load.RatePerS != tt.rate || r.Load.Prompts != tt.prompts {
			t.Errorf("%s: load %+v", tt.file, r.Load)
		}
		if r.Shape.InputTokens != tt.in || r.Shape.OutputTokens != tt.out || r.TTFT["p99"] != tt.ttftP99 || r.OutputTokPerS != tt.outTokPerS {
			t.Errorf("%s: shape %+v, TTFT %v, %g tok/s", tt.file, r.Shape, r.TTFT, r.OutputTokPerS)
		}
		if r.TPOT["median"] == 0 || r.ITL["mean"] == 0 {
			t.Errorf("%s: TPOT %v ITL %v", tt.file, r.TPOT, r.ITL)
		}
	}
}

// TestPrintedSummaryArrivals: the lines `vllm bench serve` prints before
// its summary name the burstiness and the cap ("Burstiness factor: 0.5
// (Gamma distribution)", "Maximum request concurrency: 8": vllm-project/
// vllm@def9ce85 vllm/benchmarks/serve.py benchmark); with a finite rate
// they are gamma arrivals, capped ones, or both.
func TestPrintedSummaryArrivals(t *testing.T) {
	data, err := os.ReadFile("testdata/vllm-serve-poisson.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pre  string
		want Load
	}{
		{"Burstiness factor: 1.0 (Poisson process)\nMaximum request concurrency: None\n", Load{Kind: LoadPoisson, RatePerS: 4, Prompts: 602}},
		{"Burstiness factor: 0.5 (Gamma distribution)\nMaximum request concurrency: None\n", Load{Kind: LoadGamma, RatePerS: 4, Burstiness: 0.5, Prompts: 602}},
		{"Burstiness factor: 2.0 (Gamma distribution)\n", Load{Kind: LoadGamma, RatePerS: 4, Burstiness: 2, Prompts: 602}},
		{"Burstiness factor: 1.0 (Poisson process)\nMaximum request concurrency: 8\n", Load{Kind: LoadCapped, RatePerS: 4, Concurrency: 8, Prompts: 602}},
		{"Burstiness factor: 0.5 (Gamma distribution)\nMaximum request concurrency: 16\n", Load{Kind: LoadCapped, RatePerS: 4, Concurrency: 16, Burstiness: 0.5, Prompts: 602}},
	} {
		rs, err := Parse("x.txt", []byte(c.pre+string(data)))
		if err != nil || len(rs) != 1 {
			t.Fatalf("%q: %v", c.pre, err)
		}
		if rs[0].Load != c.want {
			t.Errorf("%q: load %+v, want %+v", c.pre, rs[0].Load, c.want)
		}
	}
}

// TestPrintedSummaryErrors: a cut-off block, a missing total or a garbled
// number is an error naming it.
func TestPrintedSummaryErrors(t *testing.T) {
	data, _ := os.ReadFile("testdata/vllm-serve-sharegpt.txt")
	for name, in := range map[string]string{
		"cut off":      string(data[:len(data)-60]),
		"no duration":  replaceLine(string(data), "Benchmark duration (s):", ""),
		"garbled":      replaceLine(string(data), "Total input tokens:", "Total input tokens:   12x"),
		"bad rate":     "Traffic request rate: -3\n" + string(data),
		"wrong output": replaceLine(string(data), "Output token throughput (tok/s):", "Output token throughput (tok/s): 99.0"),
	} {
		if _, err := Parse("x.txt", []byte(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func replaceLine(s, prefix, with string) string {
	out := ""
	for _, l := range splitLines(s) {
		if len(l) >= len(prefix) && l[:len(prefix)] == prefix {
			l = with
		}
		out += l + "\n"
	}
	return out
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := range s {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// TestPrintedConcurrencyLabels: the cap on requests in flight is printed
// as "Maximum request concurrency:" (vLLM), "Max request concurrency:"
// (SGLang ≥ 0.4.2) and "Max reqeuest concurrency:" (sic, SGLang 0.4.0–0.4.1,
// as pasted in sgl-project/sglang#2805 and vllm-project/vllm#13082); each
// makes the run a closed loop, and "not set" leaves the burst.
func TestPrintedConcurrencyLabels(t *testing.T) {
	data, err := os.ReadFile("testdata/vllm-serve-sharegpt.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line string
		kind LoadKind
		conc int
	}{
		{"Maximum request concurrency:             64", LoadClosedLoop, 64},
		{"Max request concurrency:                 64", LoadClosedLoop, 64},
		{"Max reqeuest concurrency:                64", LoadClosedLoop, 64},
		{"Max reqeuest concurrency:                not set", LoadBurst, 0},
	} {
		in := strings.Replace(string(data), "Successful requests:", c.line+"\nSuccessful requests:", 1)
		rs, err := Parse("summary.txt", []byte(in))
		if err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		if l := rs[0].Load; l.Kind != c.kind || l.Concurrency != c.conc || l.Prompts != 1000 {
			t.Errorf("%q: load %+v, want %s of %d", c.line, l, c.kind, c.conc)
		}
	}
}

// TestSummaryRateMismatch reads SGLang-dLoRA's published summaries (a
// modified SGLang; provenance in testdata/README.md): six runs recorded at
// 2 … 64 requests/s that each finished 996 requests in about 263 s, the
// same ~3.8 requests/s whatever the rate. At 2/s the 996 arrivals alone
// take 498 s (± 16 s), so with CheckArrivalRate the run is read but not
// replayed; the "-0.00" median TPOT is zero, not a negative latency.
func TestSummaryRateMismatch(t *testing.T) {
	defer func(v bool) { CheckArrivalRate = v }(CheckArrivalRate)
	data, err := os.ReadFile("testdata/sglang-dlora-rate-mismatch.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		CheckArrivalRate = on
		rs, err := Parse("d.txt", data)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 6 {
			t.Fatalf("%d results", len(rs))
		}
		r := rs[0]
		if r.Completed != 996 || r.DurationS != 264.25 || r.TPOT["median"] != 0 || r.TPOT["p99"] != 28.33 || r.TTFT["median"] != 606.88 {
			t.Errorf("%+v", r)
		}
		want := Load{Kind: LoadPoisson, RatePerS: 2, Prompts: 996}
		if on {
			want = Load{Kind: LoadOther, Prompts: 996, Unsupported: "996 requests in 264.2 s cannot have been sent at the recorded 2 requests/s " +
				"(at least 434.9 s): the client did not send at that rate"}
		}
		if r.Load != want {
			t.Errorf("check %v: load %+v, want %+v", on, r.Load, want)
		}
		// 64/s: 996 arrivals take 15.6 s; 262 s is possible.
		if last := rs[5]; last.Load != (Load{Kind: LoadPoisson, RatePerS: 64, Prompts: 996}) {
			t.Errorf("check %v: 64/s load %+v", on, last.Load)
		}
	}
}

// TestSummarySGLangCookbook reads a whole SGLang cookbook page (2026
// printed layout; provenance in testdata/README.md): its prose is skipped
// and its five blocks read, the finite rates under a cap as capped open
// loops (2048 arrivals at 64/s take 32 s of the 408 s run).
func TestSummarySGLangCookbook(t *testing.T) {
	data, err := os.ReadFile("testdata/sglang-cookbook-2026-dsv32.md")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Parse("c.md", data)
	if err != nil {
		t.Fatal(err)
	}
	want := []Load{
		{Kind: LoadClosedLoop, Concurrency: 1, Prompts: 10},
		{Kind: LoadClosedLoop, Concurrency: 100, Prompts: 1000},
		{Kind: LoadCapped, RatePerS: 64, Concurrency: 1, Prompts: 10},
		{Kind: LoadCapped, RatePerS: 64, Concurrency: 1024, Prompts: 2048},
		{Kind: LoadCapped, RatePerS: 64, Concurrency: 1024, Prompts: 2048},
	}
	if len(rs) != len(want) {
		t.Fatalf("%d results", len(rs))
	}
	for i, r := range rs {
		if r.Load != want[i] || r.Format != FormatSGLang {
			t.Errorf("block %d: %s %+v", i+1, r.Format, r.Load)
		}
	}
	if r := rs[3]; r.DurationS != 408.09 || !near(r.Shape.OutputTokens, 1032734.0/2048) {
		t.Errorf("block 4: %+v", r)
	}
}

// TestPrintedSummaryUnclosed (QA 39 #4): a pasted `vllm bench serve`
// result without its closing line of '=' (a public write-up's Llama 3.1 8B
// multi-node DP run, bench/testdata/vllm-serve-unclosed-dp-c16.txt) has
// every figure the replay needs: it is read, with a note. The same block
// cut before its TPOT section, or with a figure cut in half, is refused.
func TestPrintedSummaryUnclosed(t *testing.T) {
	data, err := os.ReadFile("testdata/vllm-serve-unclosed-dp-c16.txt")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Parse("x.txt", data)
	if err != nil || len(rs) != 1 {
		t.Fatalf("refused: %v", err)
	}
	r := rs[0]
	if r.Completed != 100 || r.Load.Kind != LoadClosedLoop || r.Load.Concurrency != 16 || r.TPOT["median"] != 7.36 || r.TTFT["median"] != 43.61 {
		t.Errorf("read %+v", r)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "no closing line of '='") {
		t.Errorf("no note of the missing closing line: %q", r.Notes)
	}
	s := string(data)
	for name, in := range map[string]string{
		"cut before TPOT": s[:strings.Index(s, "-----Time per Output Token")],
		"figure cut":      s + "P99 ITL (ms):\n",
	} {
		if _, err := Parse("x.txt", []byte(in)); err == nil || !strings.Contains(err.Error(), "cut off") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

package bench

import (
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestReportCommandLineArrivals (QA realin40 #1): the GB10 reports print
// the client's command line and the summary block, with no "Burstiness
// factor" line: 07 and 08 ran --burstiness 0.7 (gamma arrivals), 09
// --burstiness 1.0 (Poisson). The burstiness is read from the command
// line, and a note says so; it was read as Poisson from the block alone.
func TestReportCommandLineArrivals(t *testing.T) {
	for _, c := range []struct {
		file string
		want Load
	}{
		{"gb10-nemotron3nano-07-office-baseline.md", Load{Kind: LoadGamma, RatePerS: 0.3, Burstiness: 0.7, Prompts: 200}},
		{"gb10-nemotron3nano-08-sharegpt.md", Load{Kind: LoadGamma, RatePerS: 0.3, Burstiness: 0.7, Prompts: 250}},
		{"gb10-nemotron3nano-09-reasoning.md", Load{Kind: LoadPoisson, RatePerS: 0.2, Prompts: 50}},
	} {
		data, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := Parse(c.file, data)
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: %v (%d results)", c.file, err, len(rs))
		}
		if rs[0].Load != c.want {
			t.Errorf("%s: load %+v, want %+v", c.file, rs[0].Load, c.want)
		}
		notes := strings.Join(rs[0].Notes, "\n")
		if !strings.Contains(notes, "--burstiness") || !strings.Contains(notes, "command line") || strings.Contains(notes, "ASSUMED") {
			t.Errorf("%s: notes %q do not say the burstiness came from the command line", c.file, notes)
		}
	}
}

// TestReportCommandLineDataset: the same reports' datasets, from the
// command line only: 08 is ShareGPT (replayed with the conversation
// spread); 07 is vLLM's random dataset of 4000/500 tokens with range
// ratio 0.9, lengths uniform in [399, 7600] and [49, 950] around the
// nominal (coefficient of variation 0.52 each; ⌊500 × (1 − 0.9)⌋ is 49 in floating point, as in the client), which the measured means
// (4080 and 485: the chat template's tokens, early stops) agree with.
func TestReportCommandLineDataset(t *testing.T) {
	read := func(file string) Result {
		rs, err := ReadFile("testdata/" + file)
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: %v", file, err)
		}
		return rs[0]
	}
	if s := read("gb10-nemotron3nano-08-sharegpt.md").Shape; s.Dataset != "sharegpt" || s.InputCVKnown || s.OutputCVKnown {
		t.Errorf("08: shape %+v, want the sharegpt dataset and no uniform spread", s)
	}
	s := read("gb10-nemotron3nano-07-office-baseline.md").Shape
	if s.Dataset != "random" || s.NominalInput != 4000 || s.NominalOutput != 500 || !s.CVFromRatio ||
		!s.InputCVKnown || !s.OutputCVKnown || math.Abs(s.InputCV-0.5197) > 1e-3 || math.Abs(s.OutputCV-0.5213) > 1e-3 {
		t.Errorf("07: shape %+v", s)
	}
}

// TestBurstinessAssumed: a printed vLLM summary at a finite rate with no
// "Burstiness factor" line and no command line records no burstiness:
// the arrivals are taken as Poisson and a note says that was ASSUMED; a
// command line without --burstiness ran the client's default (1.0), read,
// not assumed; a JSON result without the burstiness key is assumed too.
func TestBurstinessAssumed(t *testing.T) {
	data, err := os.ReadFile("testdata/gb10-nemotron3nano-07-office-baseline.md")
	if err != nil {
		t.Fatal(err)
	}
	block := string(data[strings.Index(string(data), "## Results"):])
	cmdLine := "vllm bench serve --backend openai-chat --dataset-name random --num-prompts 200 \\\n  --request-rate 0.3\n"
	for name, c := range map[string]struct {
		text    string
		assumed bool
	}{
		"block alone":               {block, true},
		"command without the flag":  {cmdLine + block, false},
		"printed Burstiness factor": {"Burstiness factor: 1.0 (Poisson process)\n" + block, false},
	} {
		rs, err := Parse("x.md", []byte(c.text))
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s: %v", name, err)
		}
		if want := (Load{Kind: LoadPoisson, RatePerS: 0.3, Prompts: 200}); rs[0].Load != want {
			t.Errorf("%s: load %+v, want %+v", name, rs[0].Load, want)
		}
		if got := strings.Contains(strings.Join(rs[0].Notes, "\n"), "ASSUMED"); got != c.assumed {
			t.Errorf("%s: assumed note %v, want %v: %q", name, got, c.assumed, rs[0].Notes)
		}
	}
	const js = `{"endpoint_type":"openai","duration":100,"completed":10,"failed":0,"total_input_tokens":1000,"total_output_tokens":1000,"request_rate":0.3,"num_prompts":10%s}`
	for extra, assumed := range map[string]bool{``: true, `,"burstiness":1.0`: false, `,"request_rate":"inf"`: false} {
		in := strings.Replace(js, `%s`, extra, 1)
		if extra == `,"request_rate":"inf"` {
			in = strings.Replace(js, `"request_rate":0.3,"num_prompts":10%s`, `"request_rate":"inf","num_prompts":10`, 1)
		}
		rs, err := Parse("x.json", []byte(in))
		if err != nil {
			t.Fatalf("%s: %v", extra, err)
		}
		if got := strings.Contains(strings.Join(rs[0].Notes, "\n"), "ASSUMED"); got != assumed {
			t.Errorf("JSON %s: assumed note %v, want %v: %q", extra, got, assumed, rs[0].Notes)
		}
	}
}

// TestReadCommand: the client's flags as the shell and argparse read
// them: a backslash continuation, quotes, --name=value, '_' for '-', the
// last of a repeated flag, a flag without a value, and nothing past a
// pipe; an expansion is kept as written (not a number, so not used).
func TestReadCommand(t *testing.T) {
	lines := []string{
		`$ python3 benchmarks/benchmark_serving.py --model 'my model' --request_rate=2 \`,
		`    --burstiness "0.5" --save-result --max-concurrency $C --request-rate 4 | tee out.log --burstiness 9`,
		`next line`,
	}
	c, n := readCommand(lines, 0)
	want := map[string]string{"model": "my model", "request-rate": "4", "burstiness": "0.5", "save-result": "", "max-concurrency": "$C"}
	if n != 2 || !c.vllm || !reflect.DeepEqual(c.flags, want) {
		t.Errorf("read %d lines, vllm %v, flags %q; want 2, true, %q", n, c.vllm, c.flags, want)
	}
	if c, n := readCommand([]string{"python3 -m sglang.bench_serving --backend sglang --request-rate 4"}, 0); n != 1 || c.vllm || c.flags["request-rate"] != "4" {
		t.Errorf("SGLang's command: %d lines, %+v", n, c)
	}
	if _, n := readCommand([]string{"vllm serve model --max-num-seqs 8"}, 0); n != 0 {
		t.Errorf("a server's command line read as the client's")
	}
	// A command line whose cap or rate is a shell variable: that load
	// cannot be told (a burst or a closed loop?), and is not simulated;
	// the notes say why. A garbled burstiness leaves Poisson assumed.
	for cmd, want := range map[string]Load{
		"vllm bench serve --request-rate 2 --max-concurrency $C --burstiness 0.5": {Kind: LoadOther, Prompts: 10,
			Unsupported: "the client's command line gives --max-concurrency as a value vlaunch cannot read"},
		"vllm bench serve --request-rate $RATE --burstiness 0.5": {Kind: LoadOther, Prompts: 10,
			Unsupported: "the client's command line gives the request rate as a value vlaunch cannot read"},
		"vllm bench serve --request-rate 2 --burstiness $B": {Kind: LoadPoisson, RatePerS: 2, Prompts: 10},
	} {
		rs, err := Parse("x.txt", []byte(cmd+"\n"+summaryBlock))
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if rs[0].Load != want {
			t.Errorf("%s: load %+v, want %+v", cmd, rs[0].Load, want)
		}
		if notes := strings.Join(rs[0].Notes, "\n"); !strings.Contains(notes, `"$`) || !strings.Contains(notes, "not used") {
			t.Errorf("%s: notes %q do not say the value was not read", cmd, notes)
		}
	}
}

// summaryBlock is a minimal consistent printed block (10 requests in 10 s).
const summaryBlock = `============ Serving Benchmark Result ============
Successful requests:                     10
Failed requests:                         0
Benchmark duration (s):                  10.00
Total input tokens:                      1000
Total generated tokens:                  1000
Output token throughput (tok/s):         100.00
Median TTFT (ms):                        50.00
Median TPOT (ms):                        10.00
==================================================
`

package logs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSamePidTwoNodesOneCapture (QA session 37 #1): two nodes' engine
// cores in containers share pid 242; their prefixes state DP ranks 0 and 1.
// One capture of both is told apart by (prefix DP rank, pid) and reports
// what the same lines as two files report: dp0 with its negative KV
// budget (LOG111 on dp0), dp1 with its own. Lines from the 0.19.0 fixture
// format; figures made up. A line with no process prefix could be either's:
// it is attributed to neither and a note says so.
func TestSamePidTwoNodesOneCapture(t *testing.T) {
	node := func(dp int, kv string) []string {
		pre := fmt.Sprintf("(EngineCore_DP%d pid=242) INFO 04-22 00:04:20 ", dp)
		return []string{
			pre + "[v1/worker/gpu_model_runner.py:4820] Model loading took 14.99 GiB memory and 14.429680 seconds",
			pre + "[v1/worker/gpu_worker.py:436] Available KV cache memory: " + kv + " GiB",
		}
	}
	n0, n1 := node(0, "-2.14"), node(1, "58.11")
	summary := func(rep *Report) string {
		var s []string
		for _, e := range rep.Engines {
			s = append(s, fmt.Sprintf("%s kv=%v", e.ID, *e.AvailableKVGiB))
		}
		for _, f := range rep.Failures {
			s = append(s, fmt.Sprint(f.Code)+"@"+f.Engine)
		}
		return strings.Join(s, " ")
	}
	want := "dp0 kv=-2.14 dp1 kv=58.11 LOG111@dp0"
	two := analyzeStrings(t, map[string]string{"a.log": strings.Join(n0, "\n") + "\n", "b.log": strings.Join(n1, "\n") + "\n"}, "a.log", "b.log")
	if got := summary(two); got != want {
		t.Fatalf("two files: %s, want %s", got, want)
	}
	for name, lines := range map[string][]string{
		"concatenated": append(append([]string{}, n0...), n1...),
		"interleaved":  {n1[0], n0[0], n1[1], n0[1]},
	} {
		rep := analyzeStrings(t, map[string]string{"n.log": strings.Join(lines, "\n") + "\n"}, "n.log")
		if got := summary(rep); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
		if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "pid 242 is used by 2 processes (EngineCore_DP0, EngineCore_DP1)") {
			t.Errorf("%s: notes %q", name, rep.Notes)
		}
	}
	lines := append(append([]string{}, n0...), n1...)
	lines = append(lines, "INFO 04-22 00:04:21 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 1,000 tokens")
	rep := analyzeStrings(t, map[string]string{"n.log": strings.Join(lines, "\n") + "\n"}, "n.log")
	for _, e := range rep.Engines {
		if e.KVCacheTokens != nil {
			t.Errorf("engine %s took the unnamed pid=242 line's KV tokens %d", e.ID, *e.KVCacheTokens)
		}
	}
	if len(rep.Notes) != 2 || !strings.Contains(rep.Notes[1], "kv_cache_tokens (n.log:5): several engines share those lines, so they are attributed to none") {
		t.Errorf("unnamed line: notes %q", rep.Notes)
	}
	// NCCL's "host:pid:tid [dev] NCCL …" lines carry the pid and no
	// process name: with pid 242 shared, either core's.
	lines = append(append([]string{}, n0...), n1...)
	lines = append(lines, "node-b:242:300 [0] NCCL INFO cudaDriverVersion 12080")
	rep = analyzeStrings(t, map[string]string{"n.log": strings.Join(lines, "\n") + "\n"}, "n.log")
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "; 1 line(s) with pid=242 and no process name cannot be attributed to either") {
		t.Errorf("NCCL line: notes %q", rep.Notes)
	}
	for _, e := range rep.Engines {
		if len(e.Ranks) != 1 {
			t.Errorf("NCCL line: engine %s has ranks %+v", e.ID, e.Ranks)
		}
	}
	// One process renamed with its rank ("EngineCore pid=5" then
	// "EngineCore_DP1 pid=5") stays one.
	one := "(EngineCore pid=5) INFO 04-22 00:04:20 [v1/worker/gpu_model_runner.py:4820] Model loading took 14.99 GiB memory and 14.4 seconds\n" +
		"(EngineCore_DP1 pid=5) INFO 04-22 00:04:20 [v1/worker/gpu_worker.py:436] Available KV cache memory: 3.00 GiB\n"
	rep = analyzeStrings(t, map[string]string{"r.log": one}, "r.log")
	if len(rep.Engines) != 1 || len(rep.Notes) != 0 || len(rep.Engines[0].Ranks) != 1 {
		t.Errorf("renamed process split: %+v notes %q", rep.Engines, rep.Notes)
	}
}

// TestSecondServerArgs (QA session 37 #3): two servers' logs concatenated,
// both with their API server at pid 1. The API server's second version
// banner is a new start-up (one process starts once), so each engine has
// its own server's arguments. Two argument sets under one prefix with no
// second banner cannot be attributed: no engine gets either, and a note
// says so. Lines in the 0.19.0 format of the fixtures; servers made up.
func TestSecondServerArgs(t *testing.T) {
	server := func(model string, pid int, args bool) []string {
		var out []string
		if args {
			out = append(out, "(APIServer pid=1) INFO 04-22 00:03:35 [entrypoints/utils.py:299]   █▄█▀ █     █     █     █  version 0.19.0")
		}
		out = append(out,
			"(APIServer pid=1) INFO 04-22 00:03:35 [entrypoints/utils.py:233] non-default args: {'model': '"+model+"', 'max_model_len': 8192}",
			fmt.Sprintf("(EngineCore pid=%d) INFO 04-22 00:03:46 [v1/engine/core.py:105] Initializing a V1 LLM engine (v0.19.0) with config: model='%s', tensor_parallel_size=1", pid, model),
			fmt.Sprintf("(EngineCore pid=%d) INFO 04-22 00:04:20 [v1/worker/gpu_worker.py:436] Available KV cache memory: 5.00 GiB", pid),
			"(APIServer pid=1) INFO:     Application startup complete.")
		return out
	}
	argsOf := func(rep *Report) string {
		var s []string
		for _, e := range rep.Engines {
			s = append(s, e.ID+"="+e.Args["model"])
		}
		return strings.Join(s, " ")
	}
	cat := append(server("a/llama", 242, true), server("b/mixtral", 244, true)...)
	rep := analyzeStrings(t, map[string]string{"c.log": strings.Join(cat, "\n") + "\n"}, "c.log")
	if got, want := argsOf(rep), "dp0=a/llama dp0#2=b/mixtral"; got != want {
		t.Errorf("concatenated: %s, want %s", got, want)
	}
	mixed := append(server("a/llama", 242, false), server("b/mixtral", 244, false)...)
	rep = analyzeStrings(t, map[string]string{"m.log": strings.Join(mixed, "\n") + "\n"}, "m.log")
	for _, e := range rep.Engines {
		if len(e.Args) > 0 {
			t.Errorf("no banner: engine %s got args %v", e.ID, e.Args)
		}
	}
	found := false
	for _, n := range rep.Notes {
		found = found || strings.Contains(n, "APIServer pid=1 logged two different argument sets in one start-up (m.log:1 and m.log:5)")
	}
	if !found {
		t.Errorf("no banner: notes %q", rep.Notes)
	}
}

// TestFileLabelsAndDuplicates (QA session 37 #4): engines of files with
// the same base name are labelled by the shortest path suffix that tells
// them apart; the same file given twice is read once, with a warning; the
// comparison table's engine column is as wide as its widest label.
func TestFileLabelsAndDuplicates(t *testing.T) {
	core := "(EngineCore_DP0 pid=7) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.41 GiB\n"
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"A/node0.log", "B/node0.log"}, "A/node0.log/dp0 B/node0.log/dp0"},
		{[]string{"x/A/node0.log", "y/A/node0.log", "prefill.log"}, "x/A/node0.log/dp0 y/A/node0.log/dp0 prefill.log/dp0"},
		{[]string{"prefill.log", "decode.log"}, "prefill.log/dp0 decode.log/dp0"},
		{[]string{"n.log", "n.log"}, "n.log#1/dp0 n.log#2/dp0"},
	} {
		var srcs []*Source
		for _, n := range c.names {
			s, err := NewSource(n, strings.NewReader(core))
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, s)
		}
		rep, err := Analyze(srcs...)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, e := range rep.Engines {
			ids = append(ids, e.ID)
		}
		if got := strings.Join(ids, " "); got != c.want {
			t.Errorf("%v: engines %s, want %s", c.names, got, c.want)
		}
	}

	dir := t.TempDir()
	p := filepath.Join(dir, "node0.log")
	if err := os.WriteFile(p, []byte(core), 0o644); err != nil {
		t.Fatal(err)
	}
	alias := filepath.Join(dir, ".", "..", filepath.Base(dir), "node0.log")
	rep, err := AnalyzeFiles([]string{p, alias})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 1 || len(rep.Engines) != 1 || len(rep.Warnings) != 1 ||
		rep.Warnings[0] != alias+" is the same file as "+p+": read once" {
		t.Errorf("same file twice: %d files, %d engines, warnings %q", len(rep.Files), len(rep.Engines), rep.Warnings)
	}

	// Column width: "B/node0.log/dp0 [decode]" is 24 characters, so every
	// row's term starts at column 2+24+1.
	lg, pr := 1.0, 2.0
	r := &Report{Comparison: []Comparison{
		{Engine: "dp0", Term: "weights_gib", Logged: &lg, Predicted: &pr},
		{Engine: "B/node0.log/dp0", Pool: "decode", Term: "weights_gib", Logged: &lg, Predicted: &pr},
	}}
	var b strings.Builder
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	var cols []int
	for _, l := range strings.Split(b.String(), "\n") {
		if i := strings.Index(l, "weights_gib"); i >= 0 {
			cols = append(cols, i)
		}
		if i := strings.Index(l, "term"); i >= 0 && strings.HasPrefix(l, "  engine") {
			cols = append(cols, i)
		}
	}
	if fmt.Sprint(cols) != "[27 27 27]" {
		t.Errorf("term columns %v, want [27 27 27]:\n%s", cols, b.String())
	}
}

// TestCompareUnstatedTP (QA session 37 #2): the decode log of the P/D
// spec gpt-oss-120b-pd-2x8h100 does not state its TP; its weights 65.97
// GiB against 17.17 predicted for the spec's TP4. An unstated setting is
// not a matching one: the explanation says the log does not state it and
// names the TP the logged figure fits (17.17 × 4 = 68.69 GiB of weights,
// over TP1 68.69 GiB per GPU, +4.1% of 65.97). A figure that fits no whole
// TP size names none; a stated TP that matches adds nothing.
func TestCompareUnstatedTP(t *testing.T) {
	for _, c := range []struct {
		name          string
		tp            *int
		logged        float64
		want, notWant []string
	}{
		{"unstated, fits TP1", nil, 65.97,
			[]string{"the log does not state its tensor parallel size; the prediction assumes the spec's 4",
				"the logged 65.97 GiB fits tensor parallel 1: 17.17 GiB predicted per GPU × the spec's TP 4 = 68.68 GiB of weights, 68.68 GiB per GPU over TP 1 (+4.1% of the logged figure)"},
			[]string{"cannot explain", "settings it states match"}},
		{"unstated, fits none", nil, 45,
			[]string{"the log does not state its tensor parallel size"}, []string{"fits tensor parallel", "settings it states match"}},
		{"stated TP4", intPtr(4), 45,
			[]string{"cannot explain this difference from the log: the settings it states match the spec"}, []string{"does not state", "fits tensor parallel"}},
	} {
		r := &Report{Engines: []Engine{{ID: "dp0", TP: c.tp, WeightsGiB: f64(c.logged)}}}
		Compare(r, Prediction{WeightsGiB: 17.17, TP: 4, PP: 1})
		if len(r.Comparison) != 1 {
			t.Fatalf("%s: rows %+v", c.name, r.Comparison)
		}
		x := r.Comparison[0].Explanation
		for _, w := range c.want {
			if !strings.Contains(x, w) {
				t.Errorf("%s: %q lacks %q", c.name, x, w)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(x, w) {
				t.Errorf("%s: %q has %q", c.name, x, w)
			}
		}
	}
}

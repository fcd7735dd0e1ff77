package logs

import (
	"fmt"
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
	// One process renamed with its rank ("EngineCore pid=5" then
	// "EngineCore_DP1 pid=5") stays one.
	one := "(EngineCore pid=5) INFO 04-22 00:04:20 [v1/worker/gpu_model_runner.py:4820] Model loading took 14.99 GiB memory and 14.4 seconds\n" +
		"(EngineCore_DP1 pid=5) INFO 04-22 00:04:20 [v1/worker/gpu_worker.py:436] Available KV cache memory: 3.00 GiB\n"
	rep = analyzeStrings(t, map[string]string{"r.log": one}, "r.log")
	if len(rep.Engines) != 1 || len(rep.Notes) != 0 || len(rep.Engines[0].Ranks) != 1 {
		t.Errorf("renamed process split: %+v notes %q", rep.Engines, rep.Notes)
	}
}

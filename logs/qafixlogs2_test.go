package logs

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// fixtureReport analyses the real fixture of that name.
func fixtureReport(t *testing.T, name string) *Report {
	t.Helper()
	for _, fx := range loadFixtures(t) {
		if fx.name == name {
			return analyzeFixture(t, fx)
		}
	}
	t.Fatalf("no fixture %s", name)
	return nil
}

func errorFailures(rep *Report) []string {
	var out []string
	for _, f := range rep.Failures {
		if f.Severity == "error" {
			out = append(out, string(f.Code)+": "+f.Message)
		}
	}
	return out
}

// TestSafetensorsProbeNotAFailure (QA 38b #1): dennislee22's gpt-oss-120b
// log has two "Error retrieving safetensors" ERROR lines (with_retry in
// vllm/transformers_utils/config.py, caught by try_get_safetensors_metadata)
// and then starts: no error, the message recognised at info level.
func TestSafetensorsProbeNotAFailure(t *testing.T) {
	rep := fixtureReport(t, "v0.10.1.1-dennislee22-gptoss120b-safetensors-probe")
	if !rep.Serving {
		t.Fatal("the server started (routes listed, startup complete): Serving is false")
	}
	if e := errorFailures(rep); len(e) > 0 {
		t.Fatalf("errors on a server that started: %q", e)
	}
	var found bool
	for _, f := range rep.Failures {
		if f.Code == CodeErrorLine && f.Severity == "info" && strings.Contains(f.Message, "try_get_safetensors_metadata returns None") && f.Count == 2 && f.Line == 6 {
			found = true
		}
	}
	if !found {
		t.Fatalf("no info LOG193 for the safetensors probe (lines 6–7): %+v", rep.Failures)
	}
}

// TestErrorLineThenStartup (QA 38b #1): an ERROR line no rule knows,
// followed by a start-up that finishes, is a warning ("logged at error
// level, start-up continued"); the same line with no start-up after it,
// or after the start-up finished, stays the error it was. Lines in the
// 0.10.1.1 format of the fixture above; the message is made up.
func TestErrorLineThenStartup(t *testing.T) {
	const (
		banner = "(APIServer pid=1009) INFO 09-10 23:26:27 [api_server.py:1805] vLLM API server version 0.10.1.1\n"
		errl   = "(APIServer pid=1009) ERROR 09-10 23:26:29 [foo.py:12] Something odd happened\n"
		ready  = "(APIServer pid=1009) INFO 09-10 23:48:02 [launcher.py:29] Available routes are:\n" +
			"(APIServer pid=1009) INFO:     Application startup complete.\n"
	)
	for _, tc := range []struct {
		name, log, sev, msg string
	}{
		{"before start-up", banner + errl + ready, "warning", "logged at error level, start-up continued: Something odd happened"},
		{"no start-up", banner + errl, "error", "Something odd happened"},
		{"while serving", banner + ready + errl, "error", "Something odd happened"},
	} {
		rep := analyzeStrings(t, map[string]string{"a.log": tc.log}, "a.log")
		var got []string
		for _, f := range rep.Failures {
			if f.Code == CodeErrorLine {
				got = append(got, f.Severity+"|"+f.Message)
			}
		}
		if want := tc.sev + "|" + tc.msg; len(got) != 1 || got[0] != want {
			t.Errorf("%s: LOG193 %q, want %q", tc.name, got, want)
		}
	}
}

// TestWrappedRayLog (QA 38b #2): the hard-wrapped 0.10.1.1 Ray log cuts
// the non-default args dict after "'model': 'Qwen" and the Ray address
// after "10.254.5.36:6"; both are read whole once the prefixed lines the
// capture cut short of its width (its colour codes stripped) are joined.
func TestWrappedRayLog(t *testing.T) {
	rep := fixtureReport(t, "v0.10.1.1-dennislee22-qwen2-7b-ray-wrapped")
	if len(rep.Engines) != 1 {
		t.Fatalf("%d engines, want 1", len(rep.Engines))
	}
	e := rep.Engines[0]
	if e.TP == nil || *e.TP != 2 || e.PP == nil || *e.PP != 1 {
		t.Errorf("TP %v PP %v, want 2 and 1 (args 'tensor_parallel_size': 2 on line 4)", e.TP, e.PP)
	}
	if got := e.Addresses["ray_address"]; got != "10.254.5.36:6379" {
		t.Errorf("ray_address %q, want 10.254.5.36:6379 (lines 23–24)", got)
	}
	if got := e.Args["model"]; got != "Qwen2-7B-Instruct" {
		t.Errorf("args model %q, want Qwen2-7B-Instruct", got)
	}
	// "Model loading took 7.1217 GiB " + "and 198.942282 seconds" (lines 90–91).
	if e.WeightsSeconds == nil || *e.WeightsSeconds != 198.942282 {
		t.Errorf("weights seconds %v, want 198.942282", e.WeightsSeconds)
	}
}

// TestConcatenatedStartups (QA 38b #3): two whole start-ups one after the
// other in one file (cat A B), from different pids: the second banner
// after the first server finished starting begins a start-up of its own,
// with its own arguments. Lines in the 0.10.1.1 format of
// dennislee22/vLLM-benchmarking's logs; the figures are made up.
func TestConcatenatedStartups(t *testing.T) {
	run := func(pid, core, tp, tokens string) string {
		a := "(APIServer pid=" + pid + ") INFO 09-03 00:35:55 "
		c := "(EngineCore_0 pid=" + core + ") INFO 09-03 00:36:20 "
		return a + "[api_server.py:1805] vLLM API server version 0.10.1.1\n" +
			a + "[utils.py:326] non-default args: {'model': 'Qwen2-7B-Instruct', 'tensor_parallel_size': " + tp + "}\n" +
			c + "[kv_cache_utils.py:849] GPU KV cache size: " + tokens + " tokens\n" +
			c + "[core.py:214] init engine (profile, create kv cache, warmup model) took 20.00 seconds\n" +
			"(APIServer pid=" + pid + ") INFO:     Application startup complete.\n"
	}
	rep := analyzeStrings(t, map[string]string{"mixed.log": run("1217", "1358", "2", "450,192") + run("1671", "1812", "1", "93,872")}, "mixed.log")
	if len(rep.Engines) != 2 {
		t.Fatalf("%d engines, want 2", len(rep.Engines))
	}
	for i, want := range []struct {
		tp     int
		tokens int64
	}{{2, 450192}, {1, 93872}} {
		e := rep.Engines[i]
		if e.TP == nil || *e.TP != want.tp || e.KVCacheTokens == nil || *e.KVCacheTokens != want.tokens {
			t.Errorf("engine %s: TP %v tokens %v, want TP%d %d", e.ID, e.TP, e.KVCacheTokens, want.tp, want.tokens)
		}
	}
}

// TestConsumedAndBindingKV (QA 38b #4): gpu_worker.py:789's summary, as
// quoted in noonghunna/club-3090#1087 (2x RTX 5090, TP2): the "consumed
// memory (weights + non-torch)" figure is read, and of the two ranks' KV
// (12.26, 12.24 GiB) the engine's is the smaller, every rank getting the
// smallest rank's blocks (unify_kv_cache_configs, vllm/v1/core/
// kv_cache_utils.py:1146–1152 at v0.10.1.1), each rank's listed.
func TestConsumedAndBindingKV(t *testing.T) {
	const log = "(Worker_TP0 pid=223) INFO 08-22 04:42:13 [gpu_worker.py:789] Free memory on device (30.27/31.4 GiB) on startup. Desired GPU memory utilization is (0.92, 28.88 GiB). Actual usage is 15.03 GiB for consumed memory (weights + non-torch), 1.59 GiB for peak activation, and 0.09 GiB for CUDAGraph memory. Replace gpu_memory_utilization config with `--kv-cache-memory=12917635953` (12.03 GiB) to fit into requested memory, or `--kv-cache-memory=14405811712` (13.42 GiB) to fully utilize gpu memory. Current kv cache memory in use is 12.26 GiB.\n" +
		"(Worker_TP1 pid=238) INFO 08-22 04:42:13 [gpu_worker.py:789] Free memory on device (30.5/31.4 GiB) on startup. Desired GPU memory utilization is (0.92, 28.88 GiB). Actual usage is 15.05 GiB for consumed memory (weights + non-torch), 1.59 GiB for peak activation, and 0.09 GiB for CUDAGraph memory. Replace gpu_memory_utilization config with `--kv-cache-memory=12889979761` (12.0 GiB) to fit into requested memory, or `--kv-cache-memory=14624833024` (13.62 GiB) to fully utilize gpu memory. Current kv cache memory in use is 12.24 GiB.\n"
	rep := analyzeStrings(t, map[string]string{"tp2.log": log}, "tp2.log")
	if len(rep.Engines) != 1 {
		t.Fatalf("%d engines, want 1", len(rep.Engines))
	}
	e := rep.Engines[0]
	if e.ConsumedGiB == nil || *e.ConsumedGiB != 15.03 {
		t.Errorf("weights + non-torch %v, want 15.03 (TP0's)", e.ConsumedGiB)
	}
	if e.AvailableKVGiB == nil || *e.AvailableKVGiB != 12.24 || len(e.AvailableKVByRank) != 2 || e.AvailableKVPerRankOnly {
		t.Errorf("KV %v by rank %+v (per rank only %v), want the minimum 12.24 of 12.26 and 12.24", e.AvailableKVGiB, e.AvailableKVByRank, e.AvailableKVPerRankOnly)
	}
	var out bytes.Buffer
	if err := WriteText(&out, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(weights + non-torch 15.03)", "KV 12.24 (minimum of the ranks, the engine's binding one: Worker_TP0 pid=223 12.26, Worker_TP1 pid=238 12.24)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}
}

// TestBlocksWithoutBlockSize (QA 38b #5): V0's "# GPU blocks: 507"
// (vllm-project/vllm#5248) with no block size logged shows the blocks;
// with the block size in the arguments, blocks × block size tokens
// (507 × 16 = 8,112).
func TestBlocksWithoutBlockSize(t *testing.T) {
	const blocks = "INFO 06-12 08:12:23 distributed_gpu_executor.py:45] # GPU blocks: 507, # CPU blocks: 1024\n"
	text := func(log string) string {
		rep := analyzeStrings(t, map[string]string{"v0.log": log}, "v0.log")
		var out bytes.Buffer
		if err := WriteText(&out, rep); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if got := text(blocks); !strings.Contains(got, "KV cache: 507 GPU blocks (block size not logged") {
		t.Errorf("blocks alone:\n%s", got)
	}
	args := "INFO 06-12 08:12:00 api_server.py:177] vLLM API server version 0.4.3\nINFO 06-12 08:12:00 api_server.py:178] args: Namespace(model='m', block_size=16)\n"
	if got := text(args + blocks); !strings.Contains(got, "KV cache: 8112 tokens (derived)") {
		t.Errorf("blocks with block_size 16:\n%s", got)
	}
}

// TestConcatenatedRealStartups (QA 38b #2, #3): dennislee22's TP2 log and
// then its hard-wrapped TP1 log in one file. Each start-up has its own
// engine and arguments (TP2 with 450,192 KV tokens; TP1 with 93,872), and
// the wrap of the second log, narrower than the first log's long lines,
// is still found (UseWrapBelowLongest).
func TestConcatenatedRealStartups(t *testing.T) {
	rep := fixtureReport(t, "v0.10.1.1-dennislee22-qwen2-7b-cat-two-runs")
	if len(rep.Engines) != 2 {
		t.Fatalf("%d engines, want 2", len(rep.Engines))
	}
	for i, want := range []struct {
		tp, argTP string
		tokens    int64
	}{{"2", "2", 450192}, {"1", "", 93872}} {
		e := rep.Engines[i]
		if e.TP == nil || strconv.Itoa(*e.TP) != want.tp || e.Args["tensor_parallel_size"] != want.argTP || e.Args["model"] != "Qwen2-7B-Instruct" ||
			e.KVCacheTokens == nil || *e.KVCacheTokens != want.tokens {
			t.Errorf("engine %s: TP %v args %v tokens %v, want TP%s (args %q) %d tokens", e.ID, e.TP, e.Args, e.KVCacheTokens, want.tp, want.argTP, want.tokens)
		}
	}
}

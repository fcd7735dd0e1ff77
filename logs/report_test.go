package logs

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

func analyzeStrings(t *testing.T, files map[string]string, order ...string) *Report {
	t.Helper()
	var srcs []*Source
	for _, name := range order {
		s, err := NewSource(name, strings.NewReader(files[name]))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, s)
	}
	rep, err := Analyze(srcs...)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestOneFilePerNode: a two-node DP deployment logged one file per node
// (node 1 headless with DP ranks 2 and 3) gives four engines, and a hang
// names the engine that got least far. The lines are in the 0.19 format of
// the llm-d fixtures; the deployment is made up.
func TestOneFilePerNode(t *testing.T) {
	node0 := `(APIServer pid=1) INFO 04-22 01:06:06 [entrypoints/utils.py:233] non-default args: {'model': 'm', 'data_parallel_size': 4, 'data_parallel_size_local': 2, 'data_parallel_address': '10.0.0.1', 'data_parallel_rpc_port': 13345}
(EngineCore_DP0 pid=10) INFO 04-22 01:06:19 [v1/engine/core.py:105] Initializing a V1 LLM engine (v0.19.0) with config: model='m', max_seq_len=8192
(EngineCore_DP1 pid=11) INFO 04-22 01:06:19 [v1/engine/core.py:105] Initializing a V1 LLM engine (v0.19.0) with config: model='m', max_seq_len=8192
(EngineCore_DP0 pid=10) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.41 GiB
(EngineCore_DP1 pid=11) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.40 GiB
(APIServer pid=1) DEBUG 04-22 01:08:10 [v1/engine/utils.py:1262] Waiting for 2 local, 2 remote core engine proc(s) to start.
`
	node1 := `(EngineCore_DP2 pid=10) INFO 04-22 01:06:20 [v1/engine/core.py:105] Initializing a V1 LLM engine (v0.19.0) with config: model='m', max_seq_len=8192
(EngineCore_DP3 pid=11) INFO 04-22 01:06:20 [v1/engine/core.py:105] Initializing a V1 LLM engine (v0.19.0) with config: model='m', max_seq_len=8192
(EngineCore_DP2 pid=10) INFO 04-22 01:06:31 [v1/worker/gpu_model_runner.py:4735] Starting to load model m...
(EngineCore_DP3 pid=11) INFO 04-22 01:07:44 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.39 GiB
`
	rep := analyzeStrings(t, map[string]string{"node0.log": node0, "node1.log": node1}, "node0.log", "node1.log")
	var ids []string
	for _, e := range rep.Engines {
		ids = append(ids, e.ID)
		if e.DP == nil || *e.DP != 4 || e.Addresses["data_parallel_address"] != "10.0.0.1" {
			t.Errorf("%s: DP size and address from node 0's arguments missing: %v %v", e.ID, e.DP, e.Addresses)
		}
	}
	if strings.Join(ids, " ") != "dp0 dp1 dp2 dp3" {
		t.Errorf("engines %v, want dp0..dp3", ids)
	}
	if len(rep.Failures) != 1 || rep.Failures[0].Code != CodeStopped || rep.Failures[0].Engine != "dp2" ||
		rep.Failures[0].Kind != KindOther || !strings.Contains(rep.Failures[0].Message, "engine dp2 got least far") {
		t.Errorf("want a stop blamed on dp2 (loading), got %+v", rep.Failures)
	}
}

// TestRestartsAreAttempts: a container that restarted logs two start-ups
// in one file; they are reported as separate attempts.
func TestRestartsAreAttempts(t *testing.T) {
	log := `INFO 05-10 15:51:55 api_server.py:912] vLLM API server version 0.7.3
INFO 05-10 15:51:56 llm_engine.py:234] Initializing a V0 LLM engine (v0.7.3) with config: model='m', max_seq_len=8192
ERROR 05-10 15:52:10 engine.py:400] ValueError: No available memory for the cache blocks. Try increasing gpu_memory_utilization when initializing the engine.
INFO 05-10 15:53:01 api_server.py:912] vLLM API server version 0.7.3
INFO 05-10 15:53:02 llm_engine.py:234] Initializing a V0 LLM engine (v0.7.3) with config: model='m', max_seq_len=4096
INFO 05-10 15:54:00 launcher.py:27] Uvicorn running on http://0.0.0.0:8000
`
	rep := analyzeStrings(t, map[string]string{"c.log": log}, "c.log")
	if len(rep.Engines) != 2 || rep.Engines[1].ID != "dp0#2" || rep.Files[0].Restarts != 1 {
		t.Fatalf("want two attempts, got %d engines, restarts %d", len(rep.Engines), rep.Files[0].Restarts)
	}
	if *rep.Engines[0].MaxModelLen != 8192 || *rep.Engines[1].MaxModelLen != 4096 || !rep.Engines[1].Ready {
		t.Errorf("attempts mixed up: %v %v", *rep.Engines[0].MaxModelLen, *rep.Engines[1].MaxModelLen)
	}
	if len(rep.Failures) != 1 || rep.Failures[0].Code != CodeNoKVMemory || rep.Failures[0].Engine != "dp0" {
		t.Errorf("failures %+v", rep.Failures)
	}
}

// TestTextOutputEscapes: control characters from the log reach the
// terminal escaped.
func TestTextOutputEscapes(t *testing.T) {
	// Escape sequences are stripped as colours are; what is left (a bell,
	// a backspace, a C1 control) is escaped.
	log := "(EngineCore pid=1) ERROR 01-01 00:00:00 [a.py:1] ValueError: evil\x1b]0;pwned\x07\x1b[2J title\x07\x08\u009b2J\n"
	rep := analyzeStrings(t, map[string]string{"x\x1b[31m.log": log}, "x\x1b[31m.log")
	var out bytes.Buffer
	if err := WriteText(&out, rep); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(out.Bytes(), "\x1b\x07\x08") || bytes.Contains(out.Bytes(), []byte("\u009b")) {
		t.Fatalf("raw escape in output:\n%q", out.String())
	}
	if !strings.Contains(out.String(), `ValueError: evil title\u0007\b\u009b2J`) {
		t.Errorf("escaped message missing:\n%s", out.String())
	}
}

// TestEveryCodeHasKindAndFix: the report's kind and fix come from kindOf
// and the catalog page; a code without either would print an empty fix.
func TestEveryCodeHasKindAndFix(t *testing.T) {
	for code := range kindOf {
		if d := defOf(code); d.Fix == "" || d.Severity == "invalid" {
			t.Errorf("%s: fix %q, severity %s", code, d.Fix, d.Severity)
		}
	}
	if d := defOf(CodeStopped); d.Fix == "" {
		t.Errorf("%s has no fix paragraph", CodeStopped)
	}
}

// TestAll2AllManagerNames: the manager names cuda_communicator.py logs map
// onto --all2all-backend values.
func TestAll2AllManagerNames(t *testing.T) {
	for logged, want := range map[string]string{"naive": vllm.BackendNaive, "PPLX": vllm.BackendPPLX,
		"DeepEP High-Throughput": vllm.BackendDeepEPHighThroughput, "DeepEP Low-Latency": vllm.BackendDeepEPLowLatency,
		"Something New": "Something New"} {
		if got := all2allName(logged); got != want {
			t.Errorf("all2allName(%q) = %q, want %q", logged, got, want)
		}
	}
}

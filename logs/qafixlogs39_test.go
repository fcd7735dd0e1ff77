package logs

import (
	"strings"
	"testing"
)

// failureOf returns the first failure with the code, or fails the test.
func failureOf(t *testing.T, rep *Report, code string) Failure {
	t.Helper()
	for _, f := range rep.Failures {
		if string(f.Code) == code {
			return f
		}
	}
	t.Fatalf("no %s among %+v", code, rep.Failures)
	return Failure{}
}

// TestWorldSizeRefused (QA 39 #1): the kubectl capture of a TP 2 server in
// a one-GPU pod. ParallelConfig's ValidationError names only the class;
// the reason ("World size (2) is larger than the number of available GPUs
// (1)", vllm.ExecutorTooSmallMessage, the message lint's VL111 quotes) is
// pydantic's Value error line, unprefixed and wrapped. It is LOG183 with
// both figures, not an unrecognised exception.
func TestWorldSizeRefused(t *testing.T) {
	rep := fixtureReport(t, "v0.11.x-k8sdoc-tp2-on-1gpu-world-size")
	f := failureOf(t, rep, "LOG183")
	if !strings.Contains(f.Message, "world size (tensor × pipeline parallel) is 2 but vLLM sees 1 GPU(s)") || f.Line != 3 {
		t.Errorf("LOG183 at line %d: %q", f.Line, f.Message)
	}
	if e := errorFailures(rep); len(e) != 1 {
		t.Errorf("want LOG183 alone, got %q", e)
	}
	if !worldSize.MatchString("World size (16) is larger than the number of available GPUs (8) in this node.") {
		t.Error("the pattern built from vllm.ExecutorTooSmallMessage does not match the message")
	}
}

// TestPydanticValueErrorReason (QA 39 #1): any pydantic ValidationError
// takes its reason from the "Value error, …" line under it, prefixed or
// not, with pydantic's "[type=value_error, …]" suffix dropped; a Value
// error line with no ValidationError before it (an excerpt) is the
// exception itself. Line shapes from the fixture above; the reason is made up.
func TestPydanticValueErrorReason(t *testing.T) {
	const reason = "Something the config refused (42)."
	for name, log := range map[string]string{
		"header line": "(APIServer pid=7) pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n" +
			"(APIServer pid=7)   Value error, " + reason + " [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n" +
			"(APIServer pid=7)     For further information visit https://errors.pydantic.dev/2.11/v/value_error\n",
		"count apart": "(APIServer pid=7) pydantic_core._pydantic_core.ValidationError:\n  1 validation error for ModelConfig\n  Value error, " + reason + "\n",
		"excerpt":     "  Value error, " + reason + "\n",
	} {
		rep := analyzeStrings(t, map[string]string{"a.log": log}, "a.log")
		f := failureOf(t, rep, "LOG191")
		if !strings.HasSuffix(f.Message, "Value error, "+reason) {
			t.Errorf("%s: %q does not end with the reason", name, f.Message)
		}
		if name != "excerpt" && !strings.Contains(f.Message, "ValidationError") || name != "excerpt" && !strings.Contains(f.Message, "for ModelConfig") {
			t.Errorf("%s: %q lost the exception or its class", name, f.Message)
		}
	}
}

// TestUnsupportedArchitecture (QA 39 #2): HunyuanImage-3's "Model
// architectures ['HunyuanImage3ForCausalMM'] are not supported for now" is
// LOG184 (a vLLM release that registers it), naming the class; vlaunch's
// registry table does not know that class, and the fix says so. A class
// the table knows (MiniMax-M3's registered name) gets its first release.
func TestUnsupportedArchitecture(t *testing.T) {
	rep := fixtureReport(t, "v0.11.x-hunyuanimage3-54-unsupported-arch")
	f := failureOf(t, rep, "LOG184")
	if !strings.Contains(f.Message, "HunyuanImage3ForCausalMM") || !strings.Contains(f.Fix, "does not know which vLLM release") || strings.Contains(f.Fix, "Upgrade transformers") {
		t.Errorf("LOG184: %q / %q", f.Message, f.Fix)
	}
	if e := errorFailures(rep); len(e) != 1 {
		t.Errorf("want LOG184 alone, got %q", e)
	}
	fix := archFix(archNames("'MiniMaxM3SparseForCausalLM'"))
	if !strings.Contains(fix, "vLLM 0.24.0 or later registers MiniMaxM3SparseForCausalLM") {
		t.Errorf("known class: %q", fix)
	}
}

// TestTransformersModelType (QA 39 #2): vllm#33580's "model type
// `glm4_moe_lite` but Transformers does not recognize this architecture"
// is LOG185, whose fix upgrades transformers, not vLLM.
func TestTransformersModelType(t *testing.T) {
	rep := fixtureReport(t, "v0.15.0-33580-glm47flash-transformers-model-type")
	f := failureOf(t, rep, "LOG185")
	if !strings.Contains(f.Message, `"glm4_moe_lite"`) || !strings.HasPrefix(f.Fix, "Upgrade transformers, not vLLM") || !strings.Contains(f.Fix, "#33580") {
		t.Errorf("LOG185: %q / %q", f.Message, f.Fix)
	}
	if e := errorFailures(rep); len(e) != 1 {
		t.Errorf("want LOG185 alone, got %q", e)
	}
}

// TestRuntimeOOM (QA 39 #3): club-3090#16's out-of-memory is logged before
// any phase line, then the API server's "AsyncLLM output_handler failed",
// which runs only once the engines started: LOG103, while serving — not
// LOG101 "during start-up".
func TestRuntimeOOM(t *testing.T) {
	rep := fixtureReport(t, "v0.2x-club3090-16-runtime-oom")
	f := failureOf(t, rep, "LOG103")
	if f.Kind != KindOOMRuntime || !strings.Contains(f.Message, "after start-up, while serving: the front-end's output handler failed") || f.Line != 1 {
		t.Errorf("LOG103: %+v", f)
	}
	if e := errorFailures(rep); len(e) != 1 {
		t.Errorf("want LOG103 alone, got %q", e)
	}
}

// TestRuntimeFatal (QA 39 #3): vllm-ascend#3395's "EngineCore encountered
// a fatal error" through run_busy_loop is LOG197, a runtime failure, not
// LOG192 "failed to start".
func TestRuntimeFatal(t *testing.T) {
	rep := fixtureReport(t, "v0.11.x-ascend3395-runtime-fatal")
	f := failureOf(t, rep, "LOG197")
	if !strings.HasPrefix(f.Message, "the engine failed after start-up, while serving") || !strings.Contains(f.Message, "the exception that ended it is not in the log") {
		t.Errorf("LOG197: %q", f.Message)
	}
	if e := errorFailures(rep); len(e) != 1 {
		t.Errorf("want LOG197 alone, got %q", e)
	}
}

// TestOOMPhaseFromEvidence (QA 39 #3): an out-of-memory line with nothing
// around it has no known phase and says so in its code and kind too
// (LOG104, oom_unknown_phase, with LOG101 and LOG103 named in the fix); a start-up wrapper after it makes it a start-up one, a
// serving line before it a runtime one, and a runtime line after it a
// runtime one unless the start-up shows. Line shapes from the fixtures;
// figures made up.
func TestOOMPhaseFromEvidence(t *testing.T) {
	const (
		oom     = "(EngineCore pid=9) ERROR 05-01 14:39:06 [core.py:1131] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB. GPU 0 has a total capacity of 23.56 GiB of which 21.75 MiB is free.\n"
		failed  = "(EngineCore pid=9) ERROR 05-01 14:39:06 [core.py:708] EngineCore failed to start.\n"
		handler = "(APIServer pid=1) ERROR 05-01 14:39:06 [async_llm.py:699] AsyncLLM output_handler failed.\n"
		up      = "(APIServer pid=1) INFO:     Application startup complete.\n"
	)
	for _, tc := range []struct{ name, log, code, kind, msg string }{
		// verify39: this one was LOG101, kind oom_loading, with a text
		// saying the phase is unknown.
		{"alone", oom, "LOG104", KindOOMUnknownPhase, "free; when is unknown"},
		{"start-up wrapper after", oom + failed, "LOG101", KindOOMLoading, "free during start-up: the log says the start-up failed"},
		{"serving before", up + oom, "LOG103", KindOOMRuntime, "free after start-up (serving)"},
		{"output handler after", oom + handler, "LOG103", KindOOMRuntime, "while serving: the front-end's output handler failed"},
		{"start-up wins over a later runtime line", oom + failed + handler, "LOG101", KindOOMLoading, "during start-up"},
	} {
		rep := analyzeStrings(t, map[string]string{"a.log": tc.log}, "a.log")
		f := failureOf(t, rep, tc.code)
		if !strings.Contains(f.Message, tc.msg) || f.Kind != tc.kind {
			t.Errorf("%s: %s %s %q, want %s %q", tc.name, f.Code, f.Kind, f.Message, tc.kind, tc.msg)
		}
		if tc.code != "LOG104" && strings.Contains(f.Message, "unknown") {
			t.Errorf("%s: %s says the phase is unknown", tc.name, f.Code)
		}
	}
}

// TestNegativeGraphNotMemory (QA 39 #5): the DGX Spark (GB10, unified
// memory) start-up logs "Graph capturing finished in 18 secs, took -0.03
// GiB". The figure is kept as read (cuda_graph_gib -0.03) but flagged as
// not a memory figure, with why, in the engine and the notes; a positive
// figure is not flagged.
func TestNegativeGraphNotMemory(t *testing.T) {
	rep := fixtureReport(t, "v0.11.0-armlp-gb10-mistral-negative-graph")
	if len(rep.Engines) != 1 {
		t.Fatalf("%d engines", len(rep.Engines))
	}
	e := rep.Engines[0]
	if e.CUDAGraphGiB == nil || *e.CUDAGraphGiB != -0.03 {
		t.Fatalf("cuda_graph_gib %v, want -0.03 as read", e.CUDAGraphGiB)
	}
	if why := e.NotMemory["cuda_graph_gib"]; !strings.Contains(why, "free memory before minus after") || !strings.Contains(why, "unified-memory") {
		t.Errorf("not_memory %q", why)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "the CUDA graph figure -0.03 GiB (v0.11.0-armlp-gb10-mistral-negative-graph/node0.log:46) is kept as logged but is not a memory figure") {
		t.Errorf("notes %q", rep.Notes)
	}
	pos := analyzeStrings(t, map[string]string{"a.log": "(EngineCore pid=1) INFO 08-23 09:40:11 [gpu_model_runner.py:6913] Graph capturing finished in 26 secs, took 0.94 GiB\n"}, "a.log")
	if len(pos.Engines) != 1 || pos.Engines[0].NotMemory != nil {
		t.Errorf("a positive figure is flagged: %+v", pos.Engines)
	}
}

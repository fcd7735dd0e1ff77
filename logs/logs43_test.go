package logs

import (
	"bytes"
	"strings"
	"testing"
)

// The lines of these tests are written in the format of
// vllm-project/vllm-ascend#2889's API-server-only log
// (https://github.com/vllm-project/vllm-ascend/issues/2889; the fixture
// v0.10.x-ascend2889-api-server-only-subprocess holds the posted lines).
const api43 = "(APIServer pid=9) INFO 09-12 09:11:42 "

// TestArgsCutByRareWrap: a "non-default args" dict cut by a hard wrap
// that only a few lines show is joined back as it was cut (mid-key), and
// only while the dict is open: the next log line stays a line of its own.
func TestArgsCutByRareWrap(t *testing.T) {
	log := api43 + "[api_server.py:1896] vLLM API server version 0.10.2\n" +
		api43 + "[utils.py:328] non-default args: {'model': '/m/Qwen3-Next', 'tensor_parallel_size': 8, 's\n" +
		"peculative_config': {'method': 'qwen3_next_mtp',\n" +
		" 'num_speculative_tokens': 2}}\n" +
		api43 + "[__init__.py:742] Resolved architecture: Qwen3NextForCausalLM\n"
	rep := oneFile(t, log)
	if len(rep.Engines) != 1 {
		t.Fatalf("engines %q, want one", engineIDs(rep))
	}
	e := rep.Engines[0]
	if got := e.Args["speculative_config"]; got != "{'method': 'qwen3_next_mtp', 'num_speculative_tokens': 2}" {
		t.Errorf("speculative_config %q: the wrapped dict was not joined back", got)
	}
	if e.TP == nil || *e.TP != 8 || e.Model != "/m/Qwen3-Next" || e.Version != "0.10.2" {
		t.Errorf("TP %v, model %q, version %q: want 8, /m/Qwen3-Next, 0.10.2", e.TP, e.Model, e.Version)
	}
	if rep.Files[0].Lines != 5 {
		t.Errorf("%d lines read, want 5", rep.Files[0].Lines)
	}
}

// TestSubprocessCause: vLLM's "RuntimeError: Error raised in subprocess:"
// relays a child's stderr; the child's exception is the cause, not the
// CalledProcessError before the wrapper nor the wrapper itself.
func TestSubprocessCause(t *testing.T) {
	const e = "(APIServer pid=9) ERROR 09-12 09:11:55 [registry.py:449] "
	log := api43 + "[api_server.py:1896] vLLM API server version 0.10.2\n" +
		e + "Error in inspecting model architecture 'Qwen3NextForCausalLM'\n" +
		e + "Traceback (most recent call last):\n" +
		e + "  File \"/v/registry.py\", line 867, in _run_in_subprocess\n" +
		e + "subprocess.CalledProcessError: Command '['python3', '-m', 'vllm.model_executor.models.registry']' returned non-zero exit status 1.\n" +
		e + "RuntimeError: Error raised in subprocess:\n" +
		e + "  File \"/v/fla/ops/op.py\", line 26, in <module>\n" +
		e + "AttributeError: module 'triton.language' has no attribute 'exp'\n"
	rep := oneFile(t, log)
	if len(rep.Failures) == 0 || !strings.HasPrefix(rep.Failures[0].Message, "AttributeError: module 'triton.language'") {
		t.Fatalf("failures %+v: want the child's AttributeError first", rep.Failures)
	}
	cut := log[:strings.Index(log, e+"  File \"/v/fla")]
	rep = oneFile(t, cut)
	if len(rep.Failures) == 0 || !strings.HasPrefix(rep.Failures[0].Message, "subprocess.CalledProcessError") {
		t.Errorf("cut before the child's exception: failures %+v, want the CalledProcessError kept", rep.Failures)
	}
}

// TestFrontEndOnlyEngine: a log of the API server's lines only reports
// what they hold (version, args, how far the front-end got) and says that
// the engine's own lines are not in it; a log with an engine core's lines
// does not.
func TestFrontEndOnlyEngine(t *testing.T) {
	log := api43 + "[api_server.py:1896] vLLM API server version 0.10.2\n" +
		api43 + "[utils.py:328] non-default args: {'model': '/m/Qwen3-Next', 'tensor_parallel_size': 8}\n" +
		api43 + "[api_server.py:579] Supported tasks: ['generate']\n"
	rep := oneFile(t, log)
	if len(rep.Engines) != 1 || !rep.Engines[0].FrontEndOnly || !rep.Engines[0].Ready {
		t.Fatalf("engines %+v: want one front-end-only engine, ready (Supported tasks)", rep.Engines)
	}
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "not in the log: the engine core's and workers' lines") {
		t.Errorf("text does not say the engine's lines are missing:\n%s", b.String())
	}
	core := "(EngineCore_DP0 pid=5) INFO 09-12 09:11:50 [core.py:75] Initializing a V1 LLM engine (v0.10.2) with config: model='/m/Qwen3-Next', tensor_parallel_size=8\n"
	rep = oneFile(t, log+core)
	if len(rep.Engines) != 1 || rep.Engines[0].FrontEndOnly {
		t.Errorf("with the engine core's header: engines %+v, want one engine not front-end-only", rep.Engines)
	}
}

// TestArgsCutForGoodNotJoined: a "non-default args" line cut for good (an
// excerpt's last characters lost) whose next lines never close its dict
// joins nothing: a download's progress line and the exception after it
// (neither a log line of vLLM's) stay lines of their own, the exception
// read as one.
func TestArgsCutForGoodNotJoined(t *testing.T) {
	log := api43 + "[utils.py:328] non-default args: {'model': '/m/x', 'tensor_parallel_size': 8, 's\n" +
		"config.json: 12.9kB [00:00, 19.4MB/s]\n" +
		"ValueError: bad speculative config\n"
	rep := oneFile(t, log)
	if rep.Files[0].Formats != nil {
		t.Errorf("formats %v: nothing should be joined", rep.Files[0].Formats)
	}
	found := false
	for _, f := range rep.Failures {
		found = found || strings.Contains(f.Message, "ValueError: bad speculative config")
	}
	if !found {
		t.Errorf("failures %+v: want the ValueError", rep.Failures)
	}
}

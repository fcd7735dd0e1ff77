package logs

import (
	"bytes"
	"strings"
	"testing"
)

// The lines below are in the formats of the real fixtures (0.19's process
// prefixes, V0's headers); the deployments are made up. Each case pins
// one branch the fixtures do not reach.

func failuresOf(t *testing.T, log string) []Failure {
	t.Helper()
	return analyzeStrings(t, map[string]string{"n.log": log}, "n.log").Failures
}

func codesOf(fs []Failure) string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Code)+":"+f.Kind)
	}
	return strings.Join(out, " ")
}

// TestUnrecognisedErrorLineFails: a server that started and then logged an
// ERROR line no rule knows is a failure (exit 1), not "no failures: the
// server started".
func TestUnrecognisedErrorLineFails(t *testing.T) {
	log := `(APIServer pid=1) INFO 04-22 01:09:00 [launcher.py:46] Application startup complete.
(APIServer pid=1) ERROR 04-22 01:10:00 [serving.py:123] Something vlaunch has never seen went wrong.
(APIServer pid=1) ERROR 04-22 01:10:00 [serving.py:123] Traceback (most recent call last):
(APIServer pid=1) ERROR 04-22 01:10:00 [serving.py:123]   File "/x/serving.py", line 1, in f
`
	rep := analyzeStrings(t, map[string]string{"n.log": log}, "n.log")
	if got := codesOf(rep.Failures); got != "LOG193:other" {
		t.Fatalf("failures %q, want LOG193:other", got)
	}
	if f := rep.Failures[0]; f.Line != 2 || !strings.Contains(f.Message, "never seen") {
		t.Errorf("want the ERROR line itself, got %+v", f)
	}
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "no failures") {
		t.Errorf("text still says no failures:\n%s", b.String())
	}
}

// TestExceptionPreferredToErrorLine: when a traceback ends in an
// exception, the exception is the generic failure, not the ERROR line
// that announced it.
func TestExceptionPreferredToErrorLine(t *testing.T) {
	log := `ERROR 06-25 17:27:19 [worker.py:68] Something failed
ERROR 06-25 17:27:19 [worker.py:68] Traceback (most recent call last):
ERROR 06-25 17:27:19 [worker.py:68]   File "/x/worker.py", line 1, in f
ERROR 06-25 17:27:19 [worker.py:68] KeyError: 'w'
`
	fs := failuresOf(t, log)
	if codesOf(fs) != "LOG191:other" || fs[0].Line != 4 {
		t.Fatalf("want LOG191 at line 4, got %+v", fs)
	}
}

// TestEngineIterationTimeoutAlone: the timeout line alone (no traceback
// after it) is LOG195, not a generic ERROR line.
func TestEngineIterationTimeoutAlone(t *testing.T) {
	fs := failuresOf(t, "ERROR 10-30 11:47:32 async_llm_engine.py:656] Engine iteration timed out. This should never happen!\n")
	if got := codesOf(fs); got != "LOG195:other" {
		t.Fatalf("failures %q, want LOG195:other", got)
	}
}

const glooTimeout = `RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 600000ms for recv operation to complete`

// TestGlooTimeoutByContext: the same Gloo timeout is a DP handshake
// failure in a data-parallel engine and a Gloo one elsewhere.
func TestGlooTimeoutByContext(t *testing.T) {
	cases := []struct{ name, log, want string }{
		{"tp worker", "(VllmWorker rank=1 pid=7) ERROR 01-01 00:00:00 [w.py:1] " + glooTimeout + "\n", "LOG134:gloo_interface"},
		{"dp engine core", `(APIServer pid=1) INFO 01-01 00:00:00 [utils.py:233] non-default args: {'model': 'm', 'data_parallel_size': 2, 'data_parallel_address': '10.0.0.1'}
(EngineCore_DP1 pid=11) ERROR 01-01 00:00:09 [core.py:1] ` + glooTimeout + "\n", "LOG153:dp_handshake"},
		{"dp frames", `(VllmWorker rank=0 pid=7) ERROR 01-01 00:00:09 [w.py:1] Traceback (most recent call last):
(VllmWorker rank=0 pid=7) ERROR 01-01 00:00:09 [w.py:1]   File "/v/core.py", line 9, in _has_global_unfinished_reqs
(VllmWorker rank=0 pid=7) ERROR 01-01 00:00:09 [w.py:1] ` + glooTimeout + "\n", "LOG153:dp_handshake"},
		{"dp size 1 namespace", `INFO 01-01 00:00:00 api_server.py:1] args: Namespace(model='m', data_parallel_size=1)
ERROR 01-01 00:00:09 worker.py:1] ` + glooTimeout + "\n", "LOG134:gloo_interface"},
	}
	for _, c := range cases {
		if got := codesOf(failuresOf(t, c.log)); got != c.want {
			t.Errorf("%s: failures %q, want %q", c.name, got, c.want)
		}
	}
}

// TestZMQBindByContext: a ZMQ bind error on the DP RPC port is LOG154
// with the errno's meaning; one that concerns nothing DP stays generic.
func TestZMQBindByContext(t *testing.T) {
	args := `(APIServer pid=1) INFO 01-01 00:00:00 [utils.py:233] non-default args: {'model': 'm', 'data_parallel_rpc_port': 13345}
`
	inUse := `(APIServer pid=1) zmq.error.ZMQError: Address already in use (addr='tcp://10.0.0.1:13345')
`
	fs := failuresOf(t, args+inUse)
	if codesOf(fs) != "LOG154:dp_handshake" || !strings.Contains(fs[0].Fix, "port 13345 is taken") {
		t.Errorf("DP RPC port: want LOG154 saying the port is taken, got %+v", fs)
	}
	other := `(APIServer pid=1) zmq.error.ZMQError: Address already in use (addr='tcp://127.0.0.1:5570')
`
	fs = failuresOf(t, other)
	if codesOf(fs) != "LOG191:other" || fs[0].Message != strings.TrimPrefix(strings.TrimSpace(other), "(APIServer pid=1) ") {
		t.Errorf("no DP context: want the generic exception, got %+v", fs)
	}
	name := `(APIServer pid=1) INFO 01-01 00:00:00 [utils.py:364] Started DP Coordinator process (PID: 279)
(APIServer pid=1) zmq.error.ZMQError: No such device (addr='tcp://rank0:41023')
`
	fs = failuresOf(t, name)
	if codesOf(fs) != "LOG154:dp_handshake" || !strings.Contains(fs[0].Fix, "does not resolve a hostname") {
		t.Errorf("DP coordinator: want LOG154 explaining the name, got %+v", fs)
	}
}

// TestWorkerDiedQuotesItsError: the executor's "died" line names the rank
// and quotes what that rank logged; the worker's own exception is still
// reported, first: a death is a consequence, and the earliest failure comes
// first (followsFrom).
func TestWorkerDiedQuotesItsError(t *testing.T) {
	log := `(VllmWorker rank=1 pid=8) ERROR 07-04 17:35:15 [w.py:1] Traceback (most recent call last):
(VllmWorker rank=1 pid=8) ERROR 07-04 17:35:15 [w.py:1] AssertionError: bad block table
ERROR 07-04 17:35:16 [multiproc_executor.py:140] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.
`
	fs := failuresOf(t, log)
	if got := codesOf(fs); got != "LOG191:other LOG194:other" {
		t.Fatalf("failures %q, want the exception, then the death that follows from it", got)
	}
	if !strings.Contains(fs[1].Message, "rank 1") || !strings.Contains(fs[1].Message, "AssertionError: bad block table") {
		t.Errorf("death message does not quote the rank's error: %s", fs[1].Message)
	}
	if fs[1].FollowsFrom == "" || fs[0].FollowsFrom != "" {
		t.Errorf("follows_from: exception %q, death %q; want the death to follow from the exception", fs[0].FollowsFrom, fs[1].FollowsFrom)
	}
	v0 := "ERROR 07-26 14:50:35 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 214281 died, exit code: -9\n"
	fs = failuresOf(t, v0)
	if codesOf(fs) != "LOG194:other" || !strings.Contains(fs[0].Message, "killed by signal 9 (SIGKILL)") {
		t.Errorf("V0 death: %+v", fs)
	}
}

// TestDPAddressHostname: only a server that binds the DP address is
// warned about a name.
func TestDPAddressHostname(t *testing.T) {
	line := func(args string) string {
		return "INFO 07-02 22:32:01 [cli_args.py:309] non-default args: {'model': 'm', 'data_parallel_size': 2, " + args + "}\n"
	}
	cases := []struct{ args, want string }{
		{"'data_parallel_address': 'rank0'", "LOG155:dp_handshake"},
		{"'data_parallel_address': 'rank0', 'data_parallel_rank': 0", "LOG155:dp_handshake"},
		{"'data_parallel_address': '10.0.0.1'", ""},
		{"'data_parallel_address': 'fd00::1'", ""},
		{"'data_parallel_address': 'rank0', 'headless': True", ""},
		{"'data_parallel_address': 'rank0', 'data_parallel_start_rank': 2", ""},
	}
	for _, c := range cases {
		var got []string
		for _, f := range failuresOf(t, line(c.args)) {
			if f.Code != CodeStopped && f.Code != CodeEnds {
				got = append(got, string(f.Code)+":"+f.Kind)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: failures %q, want %q", c.args, got, c.want)
		}
	}
}

// TestOOMInGraphCaptureByTraceback: an out-of-memory whose traceback runs
// through the CUDA-graph capture is the capture's (LOG171) even without a
// "Capturing CUDA graphs" line; one whose traceback does not is the
// loading's (LOG101), also after an earlier traceback through the capture.
// Frames as vllm#39788 (0.19, capture_model) and #30515 (_capture_cudagraphs)
// print them; the OOM line is made up.
func TestOOMInGraphCaptureByTraceback(t *testing.T) {
	const pre = "(Worker_TP2 pid=99) ERROR 04-09 20:31:10 [multiproc_executor.py:949] "
	tb := pre + "Traceback (most recent call last):\n" +
		pre + "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py\", line 588, in compile_or_warm_up_model\n" +
		pre + "    cuda_graph_memory_bytes = self.model_runner.capture_model()\n" +
		pre + "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py\", line 5795, in _capture_cudagraphs\n" +
		pre + "    self._warmup_and_capture(\n"
	loadTB := pre + "Traceback (most recent call last):\n" +
		pre + "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py\", line 300, in load_model\n" +
		pre + "    self.model_runner.load_model()\n"
	oom := pre + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 2 has a total capacity of 178.35 GiB of which 1.02 GiB is free.\n"
	cases := []struct{ name, log, want string }{
		{"capture frames", tb + oom, "LOG171:cuda_graph"},
		{"loading frames", loadTB + oom, "LOG101:oom_loading"},
		{"capture, then a new traceback", tb + pre + "RuntimeError: x\n" + loadTB + oom, "LOG101:oom_loading"},
	}
	for _, c := range cases {
		var got []string
		for _, f := range failuresOf(t, c.log) {
			if f.Code == CodeCUDAGraph || f.Code == CodeOOMLoading {
				got = append(got, string(f.Code)+":"+f.Kind)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

package logs

import (
	"strings"
	"testing"
)

// TestEndsVersusStops: a log that ends in a phase with no error and no
// process waiting is an excerpt's end (LOG002, info); one whose last rank
// waits for another, or whose traceback is cut before its exception, is a
// stop (LOG001, error). Lines in the formats of the fixtures (testdata/real);
// the sequences are made up (issue 25).
func TestEndsVersusStops(t *testing.T) {
	const (
		kv      = "(EngineCore_DP0 pid=10) INFO 04-22 01:07:43 [v1/worker/gpu_worker.py:436] Available KV cache memory: 15.41 GiB\n"
		graphs  = "(EngineCore_DP0 pid=10) INFO 04-22 01:07:50 [v1/worker/gpu_model_runner.py:3480] Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 40%\n"
		waitAPI = "(APIServer pid=1) DEBUG 04-22 01:08:10 [v1/engine/utils.py:1262] Waiting for 1 local, 0 remote core engine proc(s) to start.\n"
		waitV0  = "DEBUG 02-02 18:01:35 client.py:189] Waiting for output from MQLLMEngine.\n"
		ray     = "INFO 04-01 02:46:00 ray_utils.py:214] Waiting for creating a placement group of specs for 10 seconds. specs=[{'GPU': 1.0}]\n"
		front   = "(EngineCore_DP0 pid=10) INFO 04-22 01:06:19 [v1/engine/core.py:640] Waiting for init message from front-end.\n"
		tb      = "Process EngineCore_DP0:\nTraceback (most recent call last):\n  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap\n"
	)
	cases := []struct {
		name, log, code, sev, phase string
	}{
		{"kv-excerpt", kv, "LOG002", "info", "kv-cache"},
		{"graph-capture-excerpt", kv + graphs, "LOG002", "info", "cuda-graphs"},
		{"api-waits-last", kv + waitAPI, "LOG001", "error", ""},
		{"api-waited-then-engine-went-on", strings.Replace(waitAPI, "01:08:10", "01:07:00", 1) + kv, "LOG002", "info", "kv-cache"},
		{"v0-front-end-waits-last", "INFO 02-02 18:01:24 model_runner.py:1116] Loading model weights took 30.7098 GB\n" + waitV0, "LOG001", "error", ""},
		{"ray-placement-waits", ray, "LOG001", "error", ""},
		{"engine-waits-for-front-end", front, "LOG001", "error", ""},
		{"cut-traceback", kv + tb, "LOG001", "error", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := analyzeStrings(t, map[string]string{"n.log": c.log}, "n.log")
			var end *Failure
			for i, f := range rep.Failures {
				if f.Code == CodeStopped || f.Code == CodeEnds {
					end = &rep.Failures[i]
				}
			}
			if end == nil || string(end.Code) != c.code || end.Severity != c.sev {
				t.Fatalf("want %s [%s], got %+v", c.code, c.sev, rep.Failures)
			}
			if c.phase != "" && !strings.Contains(end.Message, "the log ends in phase "+c.phase+" ") {
				t.Errorf("message %q does not say the phase %s", end.Message, c.phase)
			}
		})
	}
}

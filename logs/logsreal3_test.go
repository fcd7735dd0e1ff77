package logs

import (
	"fmt"
	"strings"
	"testing"
)

// The line shapes of the logs collected for logsreal3 (testdata/real
// names each source). Each case failed before the rule it pins: the
// Mooncake lines were LOG193 (an unrecognised ERROR line), the unify error
// LOG191, the NPU worker's memory summary gave only total and
// utilization.
func TestLogsReal3FailureShapes(t *testing.T) {
	peer := "E1210 03:24:54.778358 2548322 ascend_direct_transport.cpp:820] Failed to connect to target: 172.16.100.99:26671, status: 103900\n"
	cases := []struct{ name, log, want, msg string }{
		// vllm-project/vllm-ascend#4866: the connector's two lines for one
		// request are one failure; the transfer engine's glog line before
		// them names the peer.
		{"mooncake transfer with peer", peer +
			"(Worker_DP0_TP5 pid=2543213) ERROR 12-10 03:24:54 [mooncake_connector.py:410] Mooncake transfer failed for request cmpl-09be-0\n" +
			"(Worker_DP0_TP5 pid=2543213) ERROR 12-10 03:24:54 [mooncake_connector.py:329] Failed to transfer KV cache for request cmpl-09be-0: Mooncake transfer failed, ret: -1\n",
			"LOG214:kv_transfer", "for request cmpl-09be-0 (transfer engine returned -1); the transfer engine could not connect to 172.16.100.99:26671"},
		// The raise alone, as an exception line (the hybrid connector's
		// form: "RuntimeError: Mooncake transfer failed, ret: -1").
		{"mooncake runtime error", "(EngineCore pid=136) ERROR 08-27 01:01:36 [mooncake_hybrid_connector.py:463] RuntimeError: Mooncake transfer failed, ret: -1\n",
			"LOG214:kv_transfer", "(transfer engine returned -1)"},
		// vllm#42911 (0.19.1, LMCache on Qwen3.6-27B).
		{"hma off unify", "(EngineCore pid=120) ERROR 05-18 01:31:14 [core.py:1108] ValueError: Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified type.\n",
			"LOG209:kv_transfer", "cannot be unified into one type"},
		// The same after vLLM said why it turned the manager off (the
		// config.py line of vllm#41830).
		{"hma off unify with connector", "(APIServer pid=1) INFO 05-18 01:30:00 [config.py:1297] Turning off hybrid kv cache manager because `--kv-transfer-config` is set. This will reduce the performance of vLLM on LLMs with sliding window attention or Mamba attention. If you are a developer of kv connector, please consider supporting hybrid kv cache manager for your connector by making sure your connector is a subclass of `SupportsHMA` defined in kv_connector/v1/base.py and use --no-disable-hybrid-kv-cache-manager to start vLLM.\n" +
			"(EngineCore pid=120) ERROR 05-18 01:31:14 [core.py:1108] ValueError: Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified type.\n",
			"LOG209:kv_transfer", "because --kv-transfer-config is set"},
		// vllm#39788: the multiproc worker's logger.exception wrapper; its
		// traceback follows (cut here), so the cause is not in the log.
		{"workerproc hit an exception", "(Worker_TP2 pid=99) ERROR 04-09 20:31:10 [multiproc_executor.py:949] WorkerProc hit an exception.\n" +
			"(Worker_TP2 pid=99) ERROR 04-09 20:31:10 [multiproc_executor.py:949] Traceback (most recent call last):\n",
			"LOG192:other", "WorkerProc hit an exception."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantFailure(t, c.log, c.want, c.msg, "") })
	}
}

// TestLogsReal3NotFailures: the same words at INFO, in a traceback frame,
// or vLLM's warning that the manager is off, are no failure of these codes.
func TestLogsReal3NotFailures(t *testing.T) {
	cases := []struct{ name, log string }{
		{"mooncake info", "(EngineCore_DP0 pid=1) INFO 01-06 06:43:02 [mooncake_connector.py:1] Mooncake transfer failed for request x will be retried\n"},
		{"hma warning", "(EngineCore_DP1 pid=131844) Hybrid KV cache manager is disabled for this hybrid model, This means we do not enable any optimizations for saving KV cache memory (e.g., dropping the KV cache outside the sliding window). The compute of layers like sliding window is still saved.\n"},
		{"unify frame", "(Worker_TP0_EP0 pid=1) ERROR 06-15 08:40:03 [multiproc_executor.py:962]     \"Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified type.\"\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range failuresOf(t, c.log) {
				if f.Code == CodeMooncakeTransfer || f.Code == CodeHMAOffUnify {
					t.Errorf("unexpected %s: %s", f.Code, f.Message)
				}
			}
		})
	}
}

// TestNPUActualUsage: vllm-ascend's worker (vllm-ascend#8289) words the
// memory summary "Actual usage: … GiB for weights, …, … GiB for NPU graph
// memory"; vLLM's gpu_worker "Actual usage is … GiB for weight, …, and …
// GiB for CUDAGraph memory". Both give the four terms.
func TestNPUActualUsage(t *testing.T) {
	for _, log := range []string{
		"(EngineCore pid=2884597) INFO 04-15 06:30:01 [worker.py:575] Free memory on device (60.86/61.27 GiB) on startup. Desired GPU memory utilization is (0.9, 55.14 GiB). Actual usage: 1.14 GiB for weights, 0.22 GiB for peak activation, 0.13 GiB for non-torch memory, 0.04 GiB for NPU graph memory. Replace gpu_memory_utilization with `--kv-cache-memory=57403864576` (53.46 GiB) to fit in\n",
		"(EngineCore pid=243) DEBUG 04-22 01:07:53 [v1/worker/gpu_worker.py:661] Free memory on device (78.68/79.19 GiB) on startup. Desired GPU memory utilization is (0.95, 75.23 GiB). Actual usage is 1.14 GiB for weight, 0.22 GiB for peak activation, 0.13 GiB for non-torch memory, and 0.04 GiB for CUDAGraph memory.\n",
	} {
		rep := analyzeStrings(t, map[string]string{"n.log": log}, "n.log")
		e := rep.Engines[0]
		for name, got := range map[string]*float64{"weights": e.WeightsGiB, "activation": e.ActivationPeakGiB, "non-torch": e.NonTorchGiB, "graphs": e.CUDAGraphGiB} {
			want := map[string]float64{"weights": 1.14, "activation": 0.22, "non-torch": 0.13, "graphs": 0.04}[name]
			if got == nil || *got != want {
				t.Errorf("%s: %s = %v, want %v", strings.Fields(log)[6], name, got, want)
			}
		}
	}
}

// TestDeadWorkerAfterRelayedError: vllm#40778. The executor relays a
// worker's error, terminates the workers and then logs one of them dying:
// LOG194 names the relayed error instead of "shows no error"; a death with
// no relayed error before it keeps the old wording.
func TestDeadWorkerAfterRelayedError(t *testing.T) {
	relayed := "(EngineCore pid=273) ERROR 04-24 10:50:25 [core.py:1110] RuntimeError: Worker failed with error 'AssertionError: auto_functionalized was not removed', please check the stack trace above for the root cause\n"
	worker := "(Worker_TP0_EP0 pid=408) WARNING 04-24 10:50:25 [multiproc_executor.py:893] WorkerProc was terminated\n"
	died := "(EngineCore pid=273) ERROR 04-24 10:50:38 [multiproc_executor.py:292] Worker proc VllmWorker-0 died unexpectedly, shutting down executor.\n"
	cases := []struct{ name, log, want string }{
		{"relayed before", relayed + worker + died, "after a worker's error it relayed at n.log:1: RuntimeError: Worker failed with error 'AssertionError"},
		{"none before", worker + died, "shows no error before it died"},
		{"relayed after", worker + died + relayed, "shows no error before it died"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := analyzeStrings(t, map[string]string{"n.log": c.log}, "n.log")
			for _, f := range rep.Failures {
				if f.Code == CodeWorkerDied {
					if !strings.Contains(f.Message, c.want) {
						t.Errorf("LOG194 message %q lacks %q", f.Message, c.want)
					}
					return
				}
			}
			t.Fatalf("no LOG194 in %+v", rep.Failures)
		})
	}
}

// TestCutTracebackThroughCapture: a cut traceback whose frames run
// through the CUDA graph capture (pytorch/pytorch#170433) is a stop of
// kind cuda_graph; one through the weight loading keeps kind other.
func TestCutTracebackThroughCapture(t *testing.T) {
	frame := "(Worker_TP0 pid=9260) ERROR 12-13 11:54:35 [multiproc_executor.py:826]   File \"/t/%s\", line 1, in %s\n" +
		"(Worker_TP0 pid=9260) ERROR 12-13 11:54:35 [multiproc_executor.py:826]     %s\n"
	cases := []struct{ name, log, kind string }{
		{"capture", fmt.Sprintf(frame, "torch/cuda/graphs.py", "capture_end", "super().capture_end()"), KindCUDAGraph},
		{"torch.cuda.graph", fmt.Sprintf(frame, "vllm/compilation/cuda_graph.py", "__call__", "with torch.cuda.graph(cudagraph, pool=self.graph_pool):"), KindCUDAGraph},
		{"loading", fmt.Sprintf(frame, "vllm/model_executor/model_loader/base_loader.py", "load_model", "self.load_weights(model, model_config)"), KindOther},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := failuresOf(t, c.log)
			if len(fs) != 1 || fs[0].Code != CodeStopped || fs[0].Kind != c.kind {
				t.Fatalf("failures %+v, want one %s of kind %s", fs, CodeStopped, c.kind)
			}
			if through := strings.Contains(fs[0].Message, "run through the CUDA graph capture"); through != (c.kind == KindCUDAGraph) {
				t.Errorf("message %q", fs[0].Message)
			}
		})
	}
}

// TestBareExceptionNamesItsFrame: an exception without a message (an
// assert; eugr/spark-vllm-docker#296) is reported with the frame and
// source line that raised it; one with a message, or with no frame before
// it, is quoted as it is.
func TestBareExceptionNamesItsFrame(t *testing.T) {
	pre := "(EngineCore pid=114) ERROR 06-23 06:27:21 [core.py:1229] "
	frames := pre + "  File \"/v/vllm/v1/core/kv_cache_utils.py\", line 1096, in unify_kv_cache_spec_page_size\n" +
		pre + "    assert new_spec.page_size_bytes == max_page_size\n" +
		pre + "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
	cases := []struct{ name, log, want string }{
		{"bare", frames + pre + "AssertionError\n", "AssertionError (raised at kv_cache_utils.py:1096 in unify_kv_cache_spec_page_size: assert new_spec.page_size_bytes == max_page_size)"},
		{"with message", frames + pre + "AssertionError: page sizes differ\n", "AssertionError: page sizes differ"},
		{"no frame", pre + "AssertionError\n", "AssertionError"},
		{"new traceback forgets the frame", frames + pre + "Traceback (most recent call last):\n" + pre + "AssertionError\n", "AssertionError"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := failuresOf(t, c.log)
			if len(fs) == 0 || fs[0].Code != CodeOther || fs[0].Message != c.want {
				t.Fatalf("failures %+v, want %s %q", fs, CodeOther, c.want)
			}
		})
	}
}

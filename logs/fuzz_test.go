package logs

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzAnalyze feeds arbitrary bytes through the whole reader: it must not
// panic, must either accept the input or call it unusable, and its text
// output must carry no raw control characters.
func FuzzAnalyze(f *testing.F) {
	paths, _ := filepath.Glob("testdata/real/*.txtar")
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			f.Add(file.Data)
		}
		// QA left 39 #4: the wrapped log behind a preamble longer than
		// the head.
		if strings.HasSuffix(p, "-ray-wrapped.txtar") {
			f.Add(append([]byte(pipPreamble(pasteHeadBytes+1)), ar.Files[0].Data...))
		}
	}
	for _, s := range []string{"", "\x00", "\x1f\x8b", "(EngineCore_DP99999999999 pid=1) INFO 01-01 00:00:00 [a] x",
		"[rank-1]:x", "(a pid=) INFO", "INFO 99-99 99:99:99 [", "non-default args: {'a': {'b': [1, (2, 3)]}",
		"Initializing a V1 LLM engine (v) with config: model='", "\r\r\r", "▎▎▎", "^[[^[[^[[", "x:1:2 [3] NCCL WARN",
		"ERROR 01-01 00:00:00 [a] Worker proc VllmWorker-99999999999999999999 died unexpectedly (exit code: -999999999999)",
		"Worker x pid 0 died, exit code: -0", "Timed out waiting 99999999999999999999999ms for send operation to complete",
		"zmq.error.ZMQError: No such device (addr='tcp://[:]:99999999999999999999')", "ZMQError: Address already in use (addr='tcp://:')",
		"non-default args: {'data_parallel_address': '', 'data_parallel_rank': -1}", "ERROR 01-01 00:00:00 [a] ^", "CRITICAL 01-01 00:00:00 [a] x",
		"[pod/a/c] (EngineCore_DP0 pid=1) INFO 01-01 00:00:00 [a] x\n[pod/b/c] (EngineCore_DP0 pid=1) INFO 01-01 00:00:00 [a] Available KV cache memory: 1 GiB\nb-1  | INFO 01-01 00:00:00 api_server.py:1] vLLM API server version 0.7.3",
		"non-default args: {'kv_transfer_config': KVTransferConfig(kv_connector='\\', kv_role=\"\")}", "Backend  was instantiated\nBackend x was instantiated",
		"p_remote_rank = self.tp_rank // tp_ratio\nZeroDivisionError", "Exception in thread nixl_handshake_listener:\nZMQError: Address already in use (addr='tcp://x:5557')",
		"UCX  ERROR ibv_create_ah(sgid_index=) on  failed: ", "UCX transports  are not available, please use one or more of: ", "NIXL_ERR_",
		"a-0 c (EngineCore_DP0 pid=1) INFO 01-01 00:00:00 [a] x\nb-0 c INFO 01-01 00:00:00 [a] y\nc d 2025-01-01T00:00:00Z z",
		// The 0.26–0.31 line forms (v031_test.go), with extreme numbers.
		"(EngineCore pid=1) INFO 01-01 00:00:00 [a] GPU KV cache size: 99,999,999,999,999,999,999 tokens, Maximum concurrency for 0 tokens per request: 1e999x",
		"(Worker_TP0_EP0 pid=1) INFO 01-01 00:00:00 [a] Setting kv cache block size to 99999999999999999999 for x backend(s).\nSetting attention block size to 0 tokens\nPadding mamba page size by 1e400% to",
		"(Worker_TP0_EP0 pid=1) INFO 01-01 00:00:00 [a] Model loading took 1e308 GiB memory and 1 seconds\n(Worker_TP0_EP0 pid=1) INFO 01-01 00:00:00 [a] Actual usage is 0 GiB for consumed memory (weights + non-torch), 9 GiB for peak activation, and 9 GiB for CUDAGraph memory",
		"The current --gpu-memory-utilization=9e999 is equivalent to --gpu-memory-utilization=. without CUDA graph memory profiling",
		// QA 41: the 0.20+ profiling wording, a prefix that lost its "(",
		// and per-rank weights with extreme figures.
		"(Worker_TP1 pid=2) INFO 01-01 00:00:00 [a] CUDA graph memory profiling is enabled (default since v0.21.0). The current --gpu-memory-utilization=1 is equivalent to --gpu-memory-utilization=-1 without CUDA graph memory profiling",
		"EngineCore pid=1) (RayWorkerWrapper pid=2, ip=) ERROR 01-01 00:00:00 [a] x\nW pid=99999999999999999999) INFO 01-01 00:00:00 [a] y\nX pid=1) ) (",
		"(W pid=1) INFO 01-01 00:00:00 [a] Loading model weights took 1e308 GB\n(W pid=2) INFO 01-01 00:00:00 [a] Loading weights took 1e400 seconds\n(W pid=3) INFO 01-01 00:00:00 [a] Loading model weights took NaN GB",
		"Resolved architecture: \x1b[31mX\nUsing V99999999999999999999 Model Runner\ninit engine (profile, create kv cache, warmup model) took 1e9 s",
		"rank 1 in world size 8 is assigned as DP rank 0, PP rank 0, PCP rank 0, TP rank 1, ETP rank 1, EP rank 99999999999999999999, EPLB rank N/A",
		// The logsreal shapes (logsreal_test.go), with extreme numbers and cut lines.
		"(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136] RuntimeError: CUDA driver error: out of memory",
		"ValueError: max_num_seqs (99999999999999999999) exceeds available Mamba cache blocks (-1).",
		"RuntimeError: Worker failed with error 'max_num_seqs (1024) exceeds available Mamba cache blocks (",
		"Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  88%|\u2588 | 45/51 [00:04<00:00,  9.30it/s]CUDA error: \x1b[31m",
		"Capturing CUDA graphs (FULL): 100%\nCUDA error: device kernel image is invalid\nCUDA error: out of memory",
		"NIXL transfer failure: handshake_setup_failed | Context: {'failure_type': '",
		"ERROR 11-22 06:57:51 [nixl_connector.py:548] Handshake with  failed\nHandshake with x",
		"To serve at least one request with the model's max seq len (262144), 1e999 GiB KV cache is needed,\nwhich is larger than the available KV cache memory (. GiB). Based on the available memory, the\nestimated maximum model length is 99999999999999999999.",
		"which is larger than the available KV cache memory (1 GiB)",
		"(EngineCore pid=1) INFO 09-22 01:00:59 [monitor.py:81] Initial profiling/warmup run took 0.05 s\n(EngineCore pid=1) INFO 09-22 01:01:06 [model_runner.py:960] Graph capturing finished in 99999999999999999999 secs, took -1e400 GiB",
		"(EngineCore pid=1) 2026-07-25 13:42:38,525 - INFO - autotuner.py:824 - flashinfer.jit: [Autotuner]: Autotuning process starts ...",
		"(vLLMHttpServer pid=62552, ip=172.17.207.216) (EngineCore_DP1 pid=62912) ERROR 01-14 03:48:38 [core.py:843]   File \"x\", line 1, in f",
		"(a pid=1, ip=) (b pid=2, ip=) (c pid=3) (d pid=) ERROR 01-01 00:00:00 [a]   File \"",
		// pydantic's ValidationError and its Value error line (failrules_config.go), cut and extreme.
		"pydantic_core._pydantic_core.ValidationError:\n  99999999999999999999 validation errors for \n  Value error, World size (99999999999999999999) is larger than the number of available GPUs (-1) in this",
		"ValidationError\nValue error, [type=value_error\n  Value error,  [type=",
		// Runtime and start-up evidence (runtime.go): markers before and after an out-of-memory, cut frames.
		"torch.OutOfMemoryError: CUDA out of memory.\nAsyncLLM output_handler failed.\nEngineCore failed to start.\n  File \"/model_executor/models/x.py\", line , in __init__\n  File \"\", line 1, in run_busy_loop\n  File \"x\", line 1, in marlin_repack",
		"Received request \nAdded request \n\"POST /v1/\nEngineCore encountered a fatal error\nKeyError",
		"Model architectures ['',,,'\x1b'] are not supported for now\nModel architectures [] are not supported for now\nhas model type `` but Transformers does not recognize this architecture",
		"2026-05-29 09:14:45,594 - INFO - [container] (APIServer pid=557)   File \"x\", line 1, in f",
		"2026-05-29 09:14:45, - a - b - c - INFO - [] - ",
		"9999-99-99 99:99:99 - CRITICAL - [",
		"2025-06-27 12:57:51,690 - __main__ - INFO -   File \"/x.py\", line 716, in __init__",
		// The DeepGEMM shapes (deepgemm_test.go): frames, cut and extreme assertions.
		"  File \".../vllm/model_executor/warmup/kernel_warmup.py\", line 37, in kernel_warmup\nRuntimeError: DeepGEMM backend is not available or outdated.",
		"    fp8_paged_mqa_logits(\n    def deep_gemm_warmup(\nRuntimeError: Worker failed with error 'DeepGEMM backend is not available",
		"RuntimeError: Assertion error (/x/../../utils/layout.hpp:99999999999999999999): Unknown recipe\nRuntimeError: Assertion error (: Unknown SF transformation",
		// QA 40: DeepGEMM's JIT assertion, cut and extreme; progress bars
		// next to prefixed workers; two files' signatures.
		"RuntimeError: Assertion error (jit/.hpp:99999999999999999999):\nRuntimeError: Assertion error (((jit/kernel_runtime.hpp:1)): \nCorrupted JIT cache directory\n`cuobjdump` not found at\ncuobjdump -symbols  failed with exit code ",
		"100% Completed |\n(Worker_DP99999999999_EP0 pid=1) \n1000%|\n(Worker_TP0_DCP0_EP0 pid=2) Loading weights took 1e999 s\n(EngineCore pid=3) Enforce eager set, disabling\n(Worker_TP99999999999 pid=4) x",
		"Failed: Assertion error csrc/utils/layout.hpp: 'Unknown recipe\nAssertion error ()Unknown recipe\x1b[31m",
		// The logsreal3 shapes (logsreal3_test.go): Mooncake's glog and connector lines, the unify
		// error, the NPU worker's memory summary, a relayed worker error, with extreme numbers.
		"E1210 03:24:54.778028 2548307 ascend_direct_transport.cpp:820] Failed to connect to target: , status: 103900\nFailed to connect to target: \x1b[31m",
		"(Worker_DP0_TP5 pid=1) ERROR 12-10 03:24:54 [mooncake_connector.py:329] Failed to transfer KV cache for request : Mooncake transfer failed, ret: -99999999999999999999\nMooncake transfer failed for request",
		"ValueError: Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified type.\n    Hybrid KV cache manager is disabled but failed to convert the KV cache specs",
		"Free memory on device (1e999/0 GiB) on startup. Desired GPU memory utilization is (9, -1 GiB). Actual usage: 1e400 GiB for weights, . GiB for peak activation, 0 GiB for non-torch memory, 99999999999999999999 GiB for NPU graph memory.",
		"RuntimeError: Worker failed with error '\nWorker proc VllmWorker-99999999999999999999 died unexpectedly, shutting down executor.",
		"  File \"/x/\", line 99999999999999999999, in \n    \x1b[31m^^^\nAssertionError\n  File \"\", line 1, in f\n    ~~~~\nAssertionError   ",
		"(Worker_TP99999999999999999999 pid=1) ERROR 04-09 20:31:10 [multiproc_executor.py:949] WorkerProc hit an exception.\n(Worker_TP0 pid=) WorkerProc hit an exception",
		// The profile lines (profile_lines_test.go): exact, then with extreme numbers and control characters.
		// The logsreal4 shapes (logsreal4_test.go): a failure relayed by two layers, an engine core
		// wrapping its Ray worker, Ray Serve's replica, RayTaskError, HCCL's watchdog, ROCm's fault, "^M".
		"[pod/p-0/vllm] (Worker_DP7_EP7 pid=4757) RuntimeError: DeepEP error: timeout (dispatch CPU)\n[pod/p-0/vllm] DeepEP timeout check failed: rank = 99999999999999999999, thread = -1, value = )",
		"(EngineCore_DP99999999999999999999 pid=1) (RayWorkerWrapper pid=2) INFO 12-11 21:40:01 [a] Available KV cache memory: 1e999 GiB",
		"(ServeReplica:a:b:c:: pid=1) (EngineCore pid=2) (RayWorkerProc pid=3) (Worker pid=) (:x pid=4) INFO 08-19 18:00:14 [a] x",
		"ray.exceptions.RayTaskError(AcceleratorError): ray::RayWorkerWrapper.__ray_call__() (pid=, ip=)\nRayTaskError(): x\nx.RayTaskError(Y",
		"[rank99999999999999999999]:[E907 12:48:03.164651138 ProcessGroupHCCL.cpp:2011] [Rank -1] HCCL watchdog thread terminated with exception:\n  what():  HCCL watchdog thread terminated with exception",
		"Memory access fault by GPU node-99999999999999999999 (Agent handle: ) on address . Reason: \x1b[31m\n    Memory access fault by GPU node-",
		"(APIServer pid=1) INFO 08-29 02:16:04 [a] version 0.1.dev1^M^M^M\n^M\n^Mx^M^\n^[[^M",
		"WARNING 10-06 15:56:47 [topk_topp_sampler.py:66] " + flashInfer011,
		"(Worker_TP0 pid=41699) INFO 10-06 15:57:18 [gpu_model_runner.py:3344] " + encoderBudget,
		"Encoder cache will be initialized with a budget of 99999999999999999999999 tokens, and profiled with 99999999999999999999 \x1b[31mvideo items of the maximum feature size",
		// The paste forms (paste.go): escapes, entities, wraps, fences, CPU KV lines.
		"INFO 01-01 00:00:00 \\[gpu\\_worker.py:1] Available KV cache memory: 1 GiB\n\\\n\\_\\_\\",
		"(EngineCore\\_DP0 pid=1) x\n&gt; &gt; &#39;&#x27;&#1114111;&#99999999;&#xD800;&amp;&",
		"{&#39;model&#39;: &#39;m&#39;}\n&gt;\n&\n&#\n&#x\n```\n<details>\n</details>\n# \n## INFO 01-01 00:00:00 [a.py:1] x\n>>>>>> y",
		strings.Repeat(strings.Repeat("x", 79)+"y\n", 8) + "(A pid=1) INFO 01-01 00:00:00 [a] z\n",
		strings.Repeat(strings.Repeat("█", 80)+"\n", 5) + "\x1b[31m" + strings.Repeat("a", 80) + "\n",
		"VLLM_CPU_KVCACHE_SPACE not set. Using 1e999 GiB for KV cache.\nExplicitly set (-1/0) GiB for KV cache on node 99999999999\nAuto set (./.) GiB for KV cache on node 0",
		"Environment variable VLLM_CPU_KVCACHE_SPACE (GiB) for CPU backend is not set, using 99999999999999999999 by default.",
		"ESC[ESC[0;ESC[1mESC[99999999999999999999999999m(a pid=1)ESC[0;0m ERROR 01-01 00:00:00 [a] ESC[",
		"Encoder cache will be initialized with a budget of 0 tokens, and profiled with 0 x items of the maximum feature size\nFlashInfer is not available. Falling back to the PyTorch-native implementation of top-p & top-k sampling\r"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := NewSource("fuzz.log", bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrUnusable) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		rep, err := Analyze(src)
		if err != nil {
			if !errors.Is(err, ErrUnusable) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteText(&out, rep); err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsAny(out.Bytes(), "\x1b\x07\r\x00") {
			t.Fatalf("raw control character in text output:\n%q", out.String())
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Fatal(err)
		}
	})
}

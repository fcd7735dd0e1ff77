package logs

import (
	"fmt"
	"strings"
	"testing"
)

// The line shapes of the logs collected for the logsreal task (releases
// 0.11–0.3x): each case is a line as the fixture's source posted it
// (testdata/real names the source), or the same line in the other form
// the message takes; the failure vlaunch must give it, and the words its
// message must carry. Each case failed before the rule it pins.
func TestLogsRealFailureShapes(t *testing.T) {
	cases := []struct{ name, log, want, msg string }{
		// noonghunna/club-3090#60: the driver API's out-of-memory while
		// Marlin repacks the weights (was LOG191 other). The line alone
		// shows no phase, so it is LOG104 (it was LOG101, kind oom_loading,
		// saying "when is unknown"); the fixture, with the repack's
		// frames, is LOG101.
		{"driver oom", "(EngineCore pid=74) ERROR 05-07 00:37:03 [core.py:1136] RuntimeError: CUDA driver error: out of memory\n",
			"LOG104:oom_unknown_phase", "CUDA out of memory; when is unknown"},
		// vllm#49064 (0.28.0) and vllm#38632: the hybrid model's state
		// blocks, raised directly and repeated by the engine (was LOG191).
		{"mamba blocks", "ValueError: max_num_seqs (1024) exceeds available Mamba cache blocks (969).\n",
			"LOG113:kv_cache_insufficient", "max_num_seqs 1024 exceeds the 969 Mamba cache blocks"},
		{"mamba blocks via worker", "(EngineCore_DP0 pid=10078) RuntimeError: Worker failed with error 'max_num_seqs (1024) exceeds available Mamba cache blocks (600). Each decode sequence requires one Mamba cache block, so CUDA graph capture cannot proceed. Please lower max_num_seqs to at most 600 or increase gpu_memory_utilization.', please check the stack trace above for the root cause\n",
			"LOG113:kv_cache_insufficient", "the 600 Mamba cache blocks"},
		// vllm-project/recipes#551: a CUDA error glued to the capture's
		// progress bar (was LOG002, an excerpt's end).
		{"capture cuda error", "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  88%|████████▊ | 45/51 [00:04<00:00,  9.30it/s]CUDA error: device kernel image is invalid\n",
			"LOG171:cuda_graph", "device kernel image is invalid"},
		// vllm#41863 and volcano-sh/kthena#503: the background NIXL
		// handshake failing (were LOG211 with UCX's fix, and LOG193).
		{"nixl handshake setup", "(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] NIXL transfer failure: handshake_setup_failed | Context: {'failure_type': 'handshake_setup_failed', 'request_id': None, 'engine_id': 'c9', 'remote_engine_id': 'b6'}\n",
			"LOG213:kv_transfer", "handshake_setup_failed"},
		// vllm#46778: the V1 max-len message wrapped after "is needed,"
		// and before "estimated" (the figures were lost, the estimate too).
		{"wrapped max len", "To serve at least one request with the model's max seq len (262144), 9.29 GiB KV cache is needed,\nwhich is larger than the available KV cache memory (9.28 GiB). Based on the available memory, the\nestimated maximum model length is 260800.\n",
			"LOG112:kv_cache_insufficient", "max_model_len 262144 needs 9.29 GiB of KV cache; 9.28 GiB is available"},
		{"nixl handshake with", "ERROR 11-22 06:57:51 [nixl_connector.py:548] Handshake with c00824be-282f-4719-9aeb-120dcb516863 failed\n",
			"LOG213:kv_transfer", "NIXL handshake"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantFailure(t, c.log, c.want, c.msg, "") })
	}
}

// wantFailure asserts that log gives exactly the failures want (codesOf's
// form), the first with msg in its message and fix in its fix ("" skips
// the fix).
func wantFailure(t *testing.T, log, want, msg, fix string) {
	t.Helper()
	fs := failuresOf(t, log)
	if got := codesOf(fs); got != want {
		t.Fatalf("failures %q, want %s: %+v", got, want, fs)
	}
	if !strings.Contains(fs[0].Message, msg) {
		t.Errorf("message %q lacks %q", fs[0].Message, msg)
	}
	if !strings.Contains(fs[0].Fix, fix) {
		t.Errorf("fix %q lacks %q", fs[0].Fix, fix)
	}
}

// TestLogsRealNotFailures: lines that look like failures and are not.
func TestLogsRealNotFailures(t *testing.T) {
	cases := []struct{ name, log string }{
		// A CUDA error outside the capture is not the capture's: the
		// generic exception rule reports it (LOG191), not LOG171.
		{"cuda error while loading", "(EngineCore pid=1) INFO 05-07 00:36:00 [gpu_model_runner.py:1] Starting to load model m...\n(EngineCore pid=1) ERROR 05-07 00:37:03 [core.py:1136] RuntimeError: CUDA error: an illegal memory access was encountered\n"},
		// The NIXL side-channel's own log of a successful handshake.
		{"handshake with ok", "(Worker_TP0 pid=1) INFO 05-01 15:00:23 [nixl_connector.py:1] Handshake with remote engine done\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range failuresOf(t, c.log) {
				if f.Code == CodeCUDAGraph || f.Code == CodeNixlHandshake {
					t.Errorf("unexpected %s: %s", f.Code, f.Message)
				}
			}
		})
	}
}

// TestProfileCaptureIsNotReady: from 0.21 the memory profile captures the
// CUDA graphs before the KV cache is sized (aivrar/vllm-windows-build#17:
// "Initial profiling/warmup run", "Graph capturing finished", then
// "Available KV cache memory"). An excerpt that ends there has not
// started: the phase is the KV cache's, not engine-ready. A capture after
// the KV cache line still ends the start-up, and a capture alone (V0's
// excerpt in testdata/real/v0.6.5dev-pr11349-graph-memory) still counts.
func TestProfileCaptureIsNotReady(t *testing.T) {
	profile := "(EngineCore pid=9) INFO 09-22 01:00:59 [monitor.py:81] Initial profiling/warmup run took 0.05 s\n" +
		"(EngineCore pid=9) INFO 09-22 01:01:06 [model_runner.py:960] Graph capturing finished in 5 secs, took 0.11 GiB\n"
	kv := "(EngineCore pid=9) INFO 09-22 01:01:06 [gpu_worker.py:625] Available KV cache memory: 6.13 GiB\n"
	capture := "(EngineCore pid=9) INFO 09-22 01:01:20 [model_runner.py:960] Graph capturing finished in 3 secs, took 0.10 GiB\n"
	cases := []struct {
		name, log, phase string
		ready            bool
		graphGiB         float64 // 0: none; the profile capture's memory is not the graphs'
	}{
		{"profile capture then kv", profile + kv, "kv-cache", false, 0},
		{"profile capture alone", profile, "profiling", false, 0},
		{"profile, kv, real capture", profile + kv + capture, "engine-ready", true, 0.10},
		{"capture alone", "INFO 12-19 22:58:41 model_runner.py:1535] Graph capturing finished in 14 secs, took 0.21 GiB\n", "engine-ready", true, 0.21},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := analyzeStrings(t, map[string]string{"n.log": c.log}, "n.log")
			if len(rep.Engines) != 1 {
				t.Fatalf("%d engines", len(rep.Engines))
			}
			e := rep.Engines[0]
			if e.Phase != c.phase || e.Ready != c.ready {
				t.Errorf("phase %q ready %v, want %q %v", e.Phase, e.Ready, c.phase, c.ready)
			}
			switch g := e.CUDAGraphGiB; {
			case c.graphGiB == 0 && g != nil:
				t.Errorf("cuda_graph_gib %v from the profile's capture, want none", *g)
			case c.graphGiB != 0 && (g == nil || *g != c.graphGiB):
				t.Errorf("cuda_graph_gib %v, want %v", g, c.graphGiB)
			}
		})
	}
}

// TestCutTracebackAlone: an excerpt that is only the middle of a worker's
// traceback at ERROR level (vllm#55914: no "Traceback" line, no exception
// line, no start-up line) is a failure whose cause is cut (LOG001), not
// "no failures"; the same frames at INFO are not a traceback.
func TestCutTracebackAlone(t *testing.T) {
	frames := `(Worker_TP1_EP1 pid=2) %s 09-08 13:02:44 [multiproc_executor.py:944]   File "/v/vllm/model_executor/model_loader/base_loader.py", line 55, in load_model
(Worker_TP1_EP1 pid=2) %s 09-08 13:02:44 [multiproc_executor.py:944]     model = initialize_model(
`
	fs := failuresOf(t, fmt.Sprintf(frames, "ERROR", "ERROR"))
	if got := codesOf(fs); got != "LOG001:other" {
		t.Fatalf("failures %q, want LOG001:other", got)
	}
	if !strings.Contains(fs[0].Message, "traceback that no exception line ends") || fs[0].Rank != "Worker_TP1_EP1 pid=2" {
		t.Errorf("got %+v", fs[0])
	}
	// Python's own traceback on stderr has no level: the same (vllm#43410).
	if got := codesOf(failuresOf(t, "(APIServer pid=557)   File \"/v/vllm/v1/engine/async_llm.py\", line 217, in from_vllm_config\n(APIServer pid=557)     return cls(\n")); got != "LOG001:other" {
		t.Errorf("level-less frames: %q, want LOG001:other", got)
	}
	if fs := failuresOf(t, fmt.Sprintf(frames, "INFO", "INFO")); len(fs) != 0 {
		t.Errorf("INFO frames: %s, want none", codesOf(fs))
	}
}

// TestV2RunnerLoadingPhase: the V2 model runner's first loading line is
// "Loading model from scratch..." (vllm#43375, the GLM-5.3 fixture): a
// log that ends there is loading the weights, not in the process-group
// set-up, whose stop would read as an NCCL problem.
func TestV2RunnerLoadingPhase(t *testing.T) {
	log := "[2026-08-21T19:42:37Z] (EngineCore pid=522) INFO 08-21 19:42:37 [parallel_state.py:1982] rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, PCP rank 0, TP rank 0, EP rank 0, EPLB rank N/A\n" +
		"[2026-08-21T19:42:37Z] (EngineCore pid=522) INFO 08-21 19:42:37 [gpu_worker.py:396] Using V2 Model Runner\n" +
		"[2026-08-21T19:42:38Z] (EngineCore pid=522) INFO 08-21 19:42:38 [model_runner.py:368] Loading model from scratch...\n"
	rep := analyzeStrings(t, map[string]string{"n.log": log}, "n.log")
	if e := rep.Engines[0]; e.Phase != "loading-weights" {
		t.Errorf("phase %q, want loading-weights", e.Phase)
	}
	// 0.2x's page-cache prefetch (vllm-project/vllm-ascend#12891).
	rep = analyzeStrings(t, map[string]string{"n.log": "(Worker_DP1_TP6_EP14 pid=51857) INFO 07-23 02:43:59 [weight_utils.py:856] Prefetching checkpoint files: 80% (9/11)\n"}, "n.log")
	if e := rep.Engines[0]; e.Phase != "loading-weights" || e.DPRank == nil || *e.DPRank != 1 {
		t.Errorf("phase %q dp %v, want loading-weights on dp1", e.Phase, e.DPRank)
	}
}

// TestShmBroadcastWaitEndsStuck: a log whose last line is vLLM's message
// queue waiting on its peers (shm_broadcast.py, as vllm#32116 and
// vllm#32105 show it) ends waiting: LOG001, not an excerpt's end.
func TestShmBroadcastWaitEndsStuck(t *testing.T) {
	log := "(Worker_PP0 pid=3258192) INFO 01-11 03:46:46 [gpu_worker.py:358] Available KV cache memory: 9.05 GiB\n" +
		"(EngineCore_DP0 pid=3258054) INFO 01-11 03:47:46 [shm_broadcast.py:542] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).\n"
	if got := codesOf(failuresOf(t, log)); !strings.HasPrefix(got, "LOG001:") {
		t.Errorf("failures %q, want LOG001", got)
	}
	if got := codesOf(failuresOf(t, log+"(Worker_PP0 pid=3258192) INFO 01-11 03:48:00 [gpu_model_runner.py:1] Graph capturing finished in 5 secs, took 0.40 GiB\n")); strings.HasPrefix(got, "LOG001:") {
		t.Errorf("failures %q after the wait ended, want no LOG001", got)
	}
}

// TestRtx6kproLineShapes: the GLM-5.1 DCP start-up logs
// (local-inference-lab/rtx6kpro, 0.20.2rc1): a chosen attention backend
// logged as "Using AttentionBackendEnum.X backend.", the MLA prefill's
// backend that is not the attention backend, and the DCP size from the
// engine config or vLLM's KV multiplier line.
func TestRtx6kproLineShapes(t *testing.T) {
	log := "(Worker_TP5_DCP1 pid=355) INFO 05-15 04:46:54 [cuda.py:313] Using AttentionBackendEnum.B12X_MLA_SPARSE backend.\n" +
		"(Worker_TP0_DCP0 pid=350) INFO 05-15 04:46:55 [selector.py:163] Using FLASH_ATTN MLA prefill backend.\n" +
		"(EngineCore_DP0 pid=666657) INFO 11-06 15:34:59 [kv_cache_utils.py:1224] Multiplying the GPU KV cache size by the dcp_world_size 8.\n" +
		"(EngineCore_DP0 pid=666657) INFO 11-06 15:34:59 [kv_cache_utils.py:1229] GPU KV cache size: 5,721,088 tokens\n"
	rep := analyzeStrings(t, map[string]string{"n.log": log}, "n.log")
	e := rep.Engines[0]
	if e.AttentionBackend != "B12X_MLA_SPARSE" {
		t.Errorf("attention %q, want B12X_MLA_SPARSE", e.AttentionBackend)
	}
	if e.DCP == nil || *e.DCP != 8 {
		t.Errorf("dcp %v, want 8", e.DCP)
	}
	only := analyzeStrings(t, map[string]string{"n.log": "(Worker_TP0_DCP0 pid=350) INFO 05-15 04:46:55 [selector.py:163] Using FLASH_ATTN MLA prefill backend.\n"}, "n.log")
	if a := only.Engines[0].AttentionBackend; a != "" {
		t.Errorf("attention %q from the MLA prefill line, want none", a)
	}
	var b strings.Builder
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "DCP8") || !strings.Contains(b.String(), "a rank's tokens × DCP 8") {
		t.Errorf("text lacks the DCP:\n%s", b.String())
	}
}

// TestEngineDeadErrorIsAWrapper: the API server's EngineDeadError
// ("EngineCore encountered an issue. See stack trace (above) for the root
// cause.", noonghunna/club-3090#58) is not the root cause: the engine's
// own exception is, even when logged after it.
func TestEngineDeadErrorIsAWrapper(t *testing.T) {
	log := "(APIServer pid=1) ERROR 05-05 12:36:59 [serving.py:1173] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.\n" +
		"(EngineCore pid=104) Traceback (most recent call last):\n" +
		"(EngineCore pid=104)   File \"/x/core.py\", line 1170, in run_busy_loop\n" +
		"(EngineCore pid=104) KeyError: 7\n"
	fs := failuresOf(t, log)
	// The frame in run_busy_loop makes it a runtime failure (QA 39 #3).
	if codesOf(fs) != "LOG197:other" || !strings.HasPrefix(fs[0].Message, "KeyError: 7 — after start-up, while serving") {
		t.Errorf("got %+v, want the engine's KeyError", fs)
	}
}

package logs

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// checkOneEngine analyzes log as one file holding one engine and checks
// the engine's JSON fields: each of want equal, each of absent missing.
func checkOneEngine(t *testing.T, log string, want map[string]any, absent []string) {
	t.Helper()
	rep := analyzeStrings(t, map[string]string{"a.log": log}, "a.log")
	if len(rep.Engines) != 1 {
		t.Fatalf("want one engine, got %d", len(rep.Engines))
	}
	got := engineFields(t, rep.Engines[0])
	for k, v := range want {
		if fmt.Sprint(got[k]) != fmt.Sprint(v) {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	for _, k := range absent {
		if got[k] != nil {
			t.Errorf("%s = %v, want it absent", k, got[k])
		}
	}
}

// engineFields is an engine's JSON object, for checking figures by name.
func engineFields(t *testing.T, e Engine) map[string]any {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCurrentReleaseLineForms: the line forms of vLLM 0.26–0.31 start-up
// logs, exactly as tant2tls/Deepseek-serving's 0.31.1rc1 logs print them
// (testdata/real/v0.31.1rc1-*), each read into the figures it states; the
// older forms they replace still read the same. A figure absent from want
// must be absent (null) from the report when listed in absent.
func TestCurrentReleaseLineForms(t *testing.T) {
	const (
		w0   = "(Worker_TP0_EP0 pid=257357) INFO 10-08 00:04:34 "
		core = "(EngineCore pid=257047) INFO 10-08 00:04:49 "
	)
	cases := []struct {
		name   string
		log    string
		want   map[string]any
		absent []string
	}{
		{"kv and concurrency on one line (0.31)",
			core + "[kv_cache_utils.py:2481] GPU KV cache size: 2,618,281 tokens, Maximum concurrency for 262,144 tokens per request: 9.99x\n",
			map[string]any{"kv_cache_tokens": 2618281.0, "max_concurrency": 9.99, "max_concurrency_tokens": 262144.0}, nil},
		{"kv and concurrency on two lines (0.19)",
			"(EngineCore pid=243) INFO 04-22 01:07:43 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 168,288 tokens\n" +
				"(EngineCore pid=243) INFO 04-22 01:07:43 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 tokens per request: 20.54x\n",
			map[string]any{"kv_cache_tokens": 168288.0, "max_concurrency": 20.54, "max_concurrency_tokens": 8192.0}, nil},
		{"CUDA graph profiling's equivalent utilization (0.21+)",
			w0 + "[gpu_worker.py:741] CUDA graph memory profiling is enabled (default since v0.21.0). The current --gpu-memory-utilization=0.9000 is equivalent to --gpu-memory-utilization=0.8842 without CUDA graph memory profiling. To maintain the same effective KV cache size as before, increase --gpu-memory-utilization to 0.9158. To disable, set VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0.\n",
			map[string]any{"gpu_memory_utilization": 0.9, "gpu_memory_utilization_without_cudagraph_profiling": 0.8842}, nil},
		{"hybrid model: the attention block size overrides the backends' (0.31)",
			w0 + "[interface.py:692] Setting kv cache block size to 64 for DEEPSEEK_V32_INDEXER/KPOOL_TAIL/FLASHINFER_MLA_SPARSE_SM90 backend(s).\n" +
				w0 + "[interface.py:1015] Setting attention block size to 640 tokens to ensure that attention page size is >= mamba page size.\n" +
				w0 + "[interface.py:1039] Padding mamba page size by 20.75% to ensure that mamba page size and attention page size are exactly equal.\n",
			map[string]any{"block_size": 640.0, "mamba_page_padding_pct": 20.75}, nil},
		{"backends' block size alone (0.31)",
			w0 + "[interface.py:692] Setting kv cache block size to 256 for DEEPSEEK_SPARSE_SWA/FLASHMLA_SPARSE_DSV4/DEEPSEEK_V4_INDEXER/CompressorBackend backend(s).\n",
			map[string]any{"block_size": 256.0}, []string{"mamba_page_padding_pct"}},
		{"consumed memory (weights + non-torch) summary (0.26+)",
			w0 + "[model_runner.py:413] Model loading took 38.8 GiB memory and 24.871466 seconds\n" +
				"(Worker_TP0_EP0 pid=257357) INFO 10-08 00:05:03 [gpu_worker.py:996] Free memory on device (77.01/79.18 GiB) on startup. Desired GPU memory utilization is (0.9, 71.26 GiB). Actual usage is 39.26 GiB for consumed memory (weights + non-torch), 3.28 GiB for peak activation, and 0.47 GiB for CUDAGraph memory. Replace gpu_memory_utilization config with `--kv-cache-memory=30181513831` (28.11 GiB) to fit into requested memory, or `--kv-cache-memory=36354454528` (33.86 GiB) to fully utilize gpu memory. Current kv cache memory in use is 28.73 GiB.\n",
			map[string]any{"weights_gib": 38.8, "weights_seconds": 24.871466, "activation_peak_gib": 3.28, "non_torch_gib": 0.46,
				"cuda_graph_gib": 0.47, "gpu_total_gib": 79.18, "gpu_memory_utilization": 0.9, "derived": []any{"non_torch_gib"}}, nil},
		{"consumed memory without the weights: non-torch unknown",
			"(Worker_TP0_EP0 pid=257357) INFO 10-08 00:05:03 [gpu_worker.py:996] Free memory on device (77.01/79.18 GiB) on startup. Desired GPU memory utilization is (0.9, 71.26 GiB). Actual usage is 39.26 GiB for consumed memory (weights + non-torch), 3.28 GiB for peak activation, and 0.47 GiB for CUDAGraph memory.\n",
			map[string]any{"activation_peak_gib": 3.28}, []string{"non_torch_gib", "weights_gib", "derived"}},
		{"older summary with weight and non-torch apart (0.19)",
			"(EngineCore pid=243) DEBUG 04-22 01:07:53 [v1/worker/gpu_worker.py:661] Free memory on device (78.68/79.19 GiB) on startup. Desired GPU memory utilization is (0.95, 75.23 GiB). Actual usage is 56.88 GiB for weight, 2.68 GiB for peak activation, 0.27 GiB for non-torch memory, and 1.41 GiB for CUDAGraph memory.\n",
			map[string]any{"weights_gib": 56.88, "activation_peak_gib": 2.68, "non_torch_gib": 0.27, "cuda_graph_gib": 1.41}, []string{"derived"}},
		{"architecture and model runner",
			"(APIServer pid=256268) INFO 10-08 00:01:55 [model.py:730] Resolved architecture: Glm5NextForConditionalGeneration\n" +
				"(Worker pid=257357) INFO 10-08 00:04:08 [gpu_worker.py:501] Using V2 Model Runner\n",
			map[string]any{"architecture": "Glm5NextForConditionalGeneration", "model_runner": "V2"}, nil},
		{"a speculative draft's architecture and length do not replace the target's (0.26, DSpark)",
			"(APIServer pid=57071) INFO 08-06 20:48:31 [model.py:623] Resolved architecture: DeepseekV4ForCausalLM\n" +
				"(APIServer pid=57071) INFO 08-06 20:48:31 [model.py:1788] Using max model len 65536\n" +
				"(APIServer pid=57071) INFO 08-06 20:48:32 [model.py:623] Resolved architecture: DeepSeekV4MTPModel\n" +
				"(APIServer pid=57071) INFO 08-06 20:48:32 [model.py:1788] Using max model len 1048576\n",
			map[string]any{"architecture": "DeepseekV4ForCausalLM", "max_model_len": 65536.0}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkOneEngine(t, c.log, c.want, c.absent) })
	}
}

// TestCurrentReleaseRanksAndReadiness: 0.31's rank line adds an ETP rank
// before the EP rank, and its engine core says "init engine … took 29.10 s"
// (no longer "seconds"); both still place the process.
func TestCurrentReleaseRanksAndReadiness(t *testing.T) {
	log := `(Worker pid=257592) INFO 10-08 00:04:08 [parallel_state.py:2308] rank 1 in world size 8 is assigned as DP rank 0, PP rank 0, PCP rank 0, TP rank 1, ETP rank 1, EP rank 1, EPLB rank N/A
(EngineCore pid=257047) INFO 10-08 00:05:04 [core.py:380] init engine (profile, create kv cache, warmup model) took 29.10 s
`
	rep := analyzeStrings(t, map[string]string{"a.log": log}, "a.log")
	if len(rep.Engines) != 1 {
		t.Fatalf("want one engine, got %d", len(rep.Engines))
	}
	var worker, core *Rank
	for i, r := range rep.Engines[0].Ranks {
		switch {
		case strings.HasPrefix(r.Label, "Worker"):
			worker = &rep.Engines[0].Ranks[i]
		case strings.HasPrefix(r.Label, "EngineCore"):
			core = &rep.Engines[0].Ranks[i]
		}
	}
	if worker == nil || worker.TPRank == nil || *worker.TPRank != 1 || worker.EPRank == nil || *worker.EPRank != 1 {
		t.Errorf("worker's TP/EP ranks not read from the ETP form: %+v", worker)
	}
	if core == nil || core.Phase != "engine-ready" {
		t.Errorf("engine core not engine-ready from \"took 29.10 s\": %+v", core)
	}
}

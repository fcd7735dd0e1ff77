package logs

import (
	"bytes"
	"strings"
	"testing"
)

// engineIDs lists the report's engine ids in order.
func engineIDs(rep *Report) string {
	var ids []string
	for _, e := range rep.Engines {
		ids = append(ids, e.ID)
	}
	return strings.Join(ids, " ")
}

// TestDeepGEMMJITRace (QA 40 #1): DeepGEMM#301's log — DeepSeek-V3.2 at
// -dp 8 on 8 × H200 — where worker DP2 fails DeepGEMM's JIT assertion
// "exit_code == 0" (kernel_runtime.hpp:45) while post-processing the
// weights after loading them, and worker DP1 logs "WorkerProc failed to
// start" with its traceback cut. It was LOG191 ("vlaunch does not
// recognise this error") with no phase, an engine "dp?" made of the
// unprefixed shard-progress lines, and nothing for DP1.
func TestDeepGEMMJITRace(t *testing.T) {
	rep := fixtureReport(t, "v0.19.1rc1-deepgemm301-dsv32-dp8-jit-race")
	f := failureOf(t, rep, "LOG196")
	for _, want := range []string{"DeepGEMM's JIT", "exit_code == 0 (kernel_runtime.hpp:45)", "during start-up", "process_weights_after_loading"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("LOG196 message %q lacks %q", f.Message, want)
		}
	}
	for _, want := range []string{"DG_JIT_CACHE_DIR", "node-local", "VLLM_USE_DEEP_GEMM=0", "deepseek-ai/DeepGEMM#301"} {
		if !strings.Contains(f.Fix, want) {
			t.Errorf("LOG196 fix %q lacks %q", f.Fix, want)
		}
	}
	if strings.Contains(f.Fix, "Install DeepGEMM the way") {
		t.Errorf("a JIT failure's fix is not the missing package's: %q", f.Fix)
	}
	if f.Engine != "dp2" || f.Line != 23 {
		t.Errorf("LOG196 on %s line %d, want dp2 line 23", f.Engine, f.Line)
	}
	if got := engineIDs(rep); got != "dp0 dp1 dp2" {
		t.Errorf("engines %q, want dp0 dp1 dp2 (the progress bars are no engine)", got)
	}
	for _, e := range rep.Engines {
		if e.DP != nil || e.DPAtLeast == nil || *e.DPAtLeast != 3 {
			t.Errorf("%s: DP %v, at least %v; want unknown, at least 3 (ranks dp0–dp2)", e.ID, e.DP, e.DPAtLeast)
		}
		// Both follow their last evidence (fix40c): DP2's traceback runs
		// through process_weights_after_loading, and DP0's last line
		// (fp8.py's MoEPrepareAndFinalize, 7 s after "Loading weights took
		// 993.09 seconds") is the weights' post-processing, the phase
		// LOG196 names. Both read loading-weights before.
		if (e.ID == "dp2" || e.ID == "dp0") && e.Phase != "processing-weights" {
			t.Errorf("%s phase %q, want processing-weights", e.ID, e.Phase)
		}
	}
	g := failureOf(t, rep, "LOG192")
	if g.Engine != "dp1" || g.Line != 24 || !strings.Contains(g.Message, "cut before the exception") {
		t.Errorf("LOG192 %s line %d: %q", g.Engine, g.Line, g.Message)
	}
	if len(rep.Failures) != 2 {
		t.Errorf("want LOG196 and LOG192 alone, got %q", errorFailures(rep))
	}
}

// TestDeepGEMMJITForms: the JIT's other failures, in the forms DeepGEMM's
// csrc/jit prints them (compiler.hpp's NVCC assertion; newer
// kernel_runtime.hpp's cuobjdump check and command failure; the corrupted
// cache check), are LOG196 with their own fix; DeepGEMM's layout.hpp
// assertion under jit_kernels/ stays the unsupported-GPU one.
func TestDeepGEMMJITForms(t *testing.T) {
	const w = "(Worker_TP0 pid=8) ERROR 04-11 14:49:58 [multiproc_executor.py:871] "
	cases := []struct{ name, log, msg, fix string }{
		{"nvcc assertion", w + `RuntimeError: Assertion error (/usr/deep_gemm/include/../csrc/jit/compiler.hpp:214): false and "NVCC compilation failed"` + "\n",
			`false and "NVCC compilation failed" (compiler.hpp:214)`, "DG_JIT_CACHE_DIR"},
		{"cuobjdump missing", w + "RuntimeError: `cuobjdump` not found at `/usr/local/cuda/bin/cuobjdump`. Install it (e.g. `cuda-cuobjdump` / `cuda-command-line-tools`) or point `CUDA_HOME` at a full CUDA toolkit.\n",
			"`cuobjdump` not found", "cuda-command-line-tools"},
		{"cuobjdump command", w + "RuntimeError: Command `/usr/local/cuda/bin/cuobjdump -symbols /root/.deep_gemm/cache/kernel.x/kernel.cubin` failed with exit code 255. Output:\n",
			"failed with exit code 255", "DG_JIT_CACHE_DIR"},
		{"corrupted cache", "Corrupted JIT cache directory (missing kernel.cu or kernel.cubin): /root/.deep_gemm/cache/kernel.x, please run `rm -rf /root/.deep_gemm/cache/kernel.x` and restart your task.\n",
			"Corrupted JIT cache directory", "remove the directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := failuresOf(t, c.log)
			if got := codesOf(fs); got != "LOG196:other" {
				t.Fatalf("failures %q, want LOG196:other", got)
			}
			if !strings.Contains(fs[0].Message, c.msg) || !strings.Contains(fs[0].Fix, c.fix) {
				t.Errorf("message %q / fix %q, want %q / %q", fs[0].Message, fs[0].Fix, c.msg, c.fix)
			}
		})
	}
	fs := failuresOf(t, w+"RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:76): Unknown recipe\n")
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "no kernel recipe for this GPU") {
		t.Errorf("layout.hpp assertion: %+v", fs)
	}
	// DeepEP's JIT assertion (EPException's form) is not DeepGEMM's.
	if got := codesOf(failuresOf(t, w+"RuntimeError: Failed: Assertion error csrc/jit/compiler.hpp:157 'runtime != nullptr'\n")); strings.Contains(got, "LOG196") {
		t.Errorf("DeepEP's JIT assertion: %q", got)
	}
}

// TestPostLoadPhase: vLLM's loader logs "Loading weights took" once it has
// read the checkpoint (base_loader.py load_model: load_weights, then
// process_weights_after_loading): a log ending there, or on a later line
// before "Model loading took", is post-processing the weights, and the
// end-of-log finding says so; "Model loading took" still ends it.
func TestPostLoadPhase(t *testing.T) {
	const w = "(Worker_TP0 pid=7) INFO 04-11 14:49:48 [default_loader.py:384] Loading weights took 993.09 seconds\n"
	for name, log := range map[string]string{
		"timer last": w,
		"fp8 after":  w + "(Worker_TP0 pid=7) INFO 04-11 14:49:55 [fp8.py:577] Using MoEPrepareAndFinalizeNaiveDPEPModular\n",
	} {
		rep := analyzeStrings(t, map[string]string{"n.log": log}, "n.log")
		if e := rep.Engines[0]; e.Phase != "processing-weights" {
			t.Errorf("%s: phase %q, want processing-weights", name, e.Phase)
		}
		var ends bool
		for _, f := range rep.Failures {
			ends = ends || strings.Contains(f.Message, "processing-weights (post-processing the weights after loading them")
		}
		if !ends {
			t.Errorf("%s: no finding names the phase: %+v", name, rep.Failures)
		}
	}
	done := w + "(Worker_TP0 pid=7) INFO 04-11 14:49:59 [gpu_model_runner.py:1] Model loading took 80.1 GiB and 1000.2 seconds\n"
	if e := analyzeStrings(t, map[string]string{"n.log": done}, "n.log").Engines[0]; e.Phase != "weights-loaded" {
		t.Errorf("after \"Model loading took\": phase %q, want weights-loaded", e.Phase)
	}
}

// TestProgressBarsNoEngine: unprefixed lines that are nothing but
// progress bars, next to prefixed workers, are those workers' redrawn
// output, not an engine "dp?"; an unprefixed line with vLLM's header
// next to the same workers still counts (a V0 driver or an early V1
// engine logs unprefixed).
func TestProgressBarsNoEngine(t *testing.T) {
	w := func(dp string) string {
		return "(Worker_DP" + dp + "_EP" + dp + " pid=49" + dp + ") INFO 04-11 14:49:48 [default_loader.py:384] Loading weights took 993.09 seconds\n"
	}
	bar := "Loading safetensors checkpoint shards: 100% Completed | 163/163 [16:33<00:00,  6.09s/it]\n"
	tqdm := "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|██████████| 51/51 [00:03<00:00, 14.2it/s]\n"
	if got := engineIDs(analyzeStrings(t, map[string]string{"n.log": bar + w("0") + tqdm + w("1")}, "n.log")); got != "dp0 dp1" {
		t.Errorf("bars: engines %q, want dp0 dp1", got)
	}
	headed := "INFO 04-11 14:49:40 [loader.py:1] Loading safetensors checkpoint shards\n"
	if got := engineIDs(analyzeStrings(t, map[string]string{"n.log": headed + w("0") + w("1")}, "n.log")); got != "dp0 dp1 dp?" {
		t.Errorf("headed: engines %q, want dp0 dp1 dp?", got)
	}
}

// TestTwoServersByFile (QA 40 #2): the prefill (TP 16, no DP) and decode
// (DP 4 × TP 4) servers of a vllm-ascend P/D deployment, one file each,
// are two servers, each with its own engine and its own end-of-log
// finding. They were one deployment (engines dp0 and dp3) with one LOG002.
func TestTwoServersByFile(t *testing.T) {
	rep := fixtureReport(t, "v0.1x-ascend-1m-pd-dcp-two-servers")
	if got := engineIDs(rep); got != "prefill.log/dp0 decode.log/dp3" {
		t.Errorf("engines %q, want prefill.log/dp0 decode.log/dp3", got)
	}
	// DP rank 3 bounds the decode server's DP size, not the prefill's.
	if p, d := rep.Engines[0], rep.Engines[1]; p.DPAtLeast != nil || d.DPAtLeast == nil || *d.DPAtLeast != 4 {
		t.Errorf("DP at least: prefill %v, decode %v; want none, 4", p.DPAtLeast, d.DPAtLeast)
	}
	var ends []string
	for _, f := range rep.Failures {
		if f.Code == CodeEnds {
			ends = append(ends, f.Engine+"@"+f.File[strings.LastIndex(f.File, "/")+1:])
		}
	}
	if got := strings.Join(ends, " "); got != "prefill.log/dp0@prefill.log decode.log/dp3@decode.log" {
		t.Errorf("LOG002 findings %q, want one per server", got)
	}
}

// TestServerSignatures: files are different servers when they say so —
// kv_role, parallel sizes, port, DP naming — and one server's nodes (the
// same signature, different DP ranks) stay one.
func TestServerSignatures(t *testing.T) {
	kvLine := func(proc string) string {
		return "(" + proc + " pid=7) INFO 07-24 01:54:17 [kv_cache_utils.py:1744] GPU KV cache size: 1,000 tokens\n"
	}
	kv := func(proc, role string) string {
		return "(APIServer pid=1) INFO 11-25 02:39:01 [utils.py:233] non-default args: {'model': 'm', 'kv_transfer_config': KVTransferConfig(kv_connector='NixlConnector', engine_id='e', kv_role='" + role + "')}\n" + kvLine(proc)
	}
	cases := []struct{ name, a, b, want string }{
		{"kv_role", kv("EngineCore_DP0", "kv_producer"), kv("EngineCore_DP1", "kv_consumer"), "a.log/dp0 b.log/dp1"},
		{"same role, two nodes", kv("EngineCore_DP0", "kv_both"), kv("EngineCore_DP1", "kv_both"), "dp0 dp1"},
		{"dp and no dp", kv("EngineCore", "kv_both"), kv("EngineCore_DP1", "kv_both"), "a.log/dp0 b.log/dp1"},
		{"tp args", "(APIServer pid=1) INFO 07-24 01:50:00 [utils.py:233] non-default args: {'tensor_parallel_size': 16}\n" + kvLine("EngineCore_DP0"),
			"(APIServer pid=1) INFO 07-24 01:50:00 [utils.py:233] non-default args: {'tensor_parallel_size': 4}\n" + kvLine("EngineCore_DP1"), "a.log/dp0 b.log/dp1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := analyzeStrings(t, map[string]string{"a.log": c.a, "b.log": c.b}, "a.log", "b.log")
			if got := engineIDs(rep); got != c.want {
				t.Errorf("engines %q, want %q", got, c.want)
			}
		})
	}
}

// TestTailTPAndEager (QA 40 #3): the tail of a GLM-5.1 log shows workers
// TP0–TP7 and no arguments (TP at least 8, a lower bound) and "Enforce
// eager set, disabling torch.compile and CUDAGraphs" (no CUDA graphs).
// It said "TP?" and "CUDA graphs ?".
func TestTailTPAndEager(t *testing.T) {
	rep := fixtureReport(t, "v0.19.1rc1-glm51-fp8-tp8-eager-tail")
	e := rep.Engines[0]
	if e.TP != nil || e.TPAtLeast == nil || *e.TPAtLeast != 8 {
		t.Errorf("TP %v, at least %v; want unknown, at least 8", e.TP, e.TPAtLeast)
	}
	if e.CUDAGraphsOff != "enforce_eager" || e.CUDAGraphGiB != nil {
		t.Errorf("CUDA graphs off %q (%v), want enforce_eager", e.CUDAGraphsOff, e.CUDAGraphGiB)
	}
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"TP at least 8 PP? DP?", "CUDA graphs none (enforce_eager)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	// A size the log states wins over its ranks.
	log := "(APIServer pid=1) INFO 05-19 02:10:00 [utils.py:233] non-default args: {'tensor_parallel_size': 8}\n" +
		"(Worker_TP7 pid=9) INFO 05-19 02:11:44 [interface.py:489] Setting kv cache block size to 64 for DEEPSEEK_V32_INDEXER backend.\n"
	e = analyzeStrings(t, map[string]string{"n.log": log}, "n.log").Engines[0]
	if e.TP == nil || *e.TP != 8 || e.TPAtLeast != nil {
		t.Errorf("stated TP: %v, at least %v", e.TP, e.TPAtLeast)
	}
}

// TestOOMLoadingTextSaysStartup: LOG101's kind is oom_loading (a start-up
// one); its text says start-up too when the phase is known from a phase
// line, naming the phase — it read "during loading-weights", and "during
// starting" after the banner alone. Line shapes from the fixtures.
func TestOOMLoadingTextSaysStartup(t *testing.T) {
	const oom = "(EngineCore pid=9) ERROR 05-01 14:39:06 [core.py:1131] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB. GPU 0 has a total capacity of 23.56 GiB of which 21.75 MiB is free.\n"
	for name, tc := range map[string]struct{ before, want string }{
		"loading": {"(EngineCore pid=9) INFO 05-01 14:38:00 [default_loader.py:1] Loading safetensors checkpoint shards: 0% Completed | 0/4\n", "free during start-up (phase loading-weights)"},
		"banner":  {"(APIServer pid=1) INFO 05-01 14:37:00 [api_server.py:1] vLLM API server version 0.19.0\n", "free during start-up (phase starting)"},
	} {
		f := failureOf(t, analyzeStrings(t, map[string]string{"a.log": tc.before + oom}, "a.log"), "LOG101")
		if f.Kind != KindOOMLoading || !strings.Contains(f.Message, tc.want) {
			t.Errorf("%s: %s %q, want %q", name, f.Kind, f.Message, tc.want)
		}
	}
}

package logs

import (
	"bytes"
	"strings"
	"testing"
)

// oneFile analyses a single made-up log file named "n.log".
func oneFile(t *testing.T, log string) *Report {
	t.Helper()
	return analyzeStrings(t, map[string]string{"n.log": log}, "n.log")
}

// rankByLabel returns the engine's rank with the label, or fails.
func rankByLabel(t *testing.T, e Engine, label string) Rank {
	t.Helper()
	for _, r := range e.Ranks {
		if r.Label == label {
			return r
		}
	}
	t.Fatalf("engine %s has no rank %q among %+v", e.ID, label, e.Ranks)
	return Rank{}
}

// TestWeightsStayWithTheirRank (QA 41 D7): a Ray PP engine whose ranks
// log their weights and their loader time on separate lines (vllm-ascend's
// model_runner_v1.py and default_loader.py, as in vllm-ascend#6678). The
// engine's weights are the largest rank's, never paired with another
// rank's time; each rank's figure is listed. The lines are written for
// the test in that format; the figures are made up.
func TestWeightsStayWithTheirRank(t *testing.T) {
	const pre = "(EngineCore_DP0 pid=50) "
	log := pre + "(RayWorkerWrapper pid=11, ip=10.0.0.1) INFO 02-11 10:25:01 [default_loader.py:291] Loading weights took 90.50 seconds\n" +
		pre + "(RayWorkerWrapper pid=12) INFO 02-11 10:24:52 [model_runner_v1.py:2205] Loading model weights took 17.5000 GB\n" +
		pre + "(RayWorkerWrapper pid=13, ip=10.0.0.2) INFO 02-11 10:25:04 [default_loader.py:291] Loading weights took 95.25 seconds\n" +
		pre + "(RayWorkerWrapper pid=14, ip=10.0.0.1) INFO 02-11 10:25:05 [model_runner_v1.py:2205] Loading model weights took 20.2500 GB\n"
	rep := oneFile(t, log)
	if len(rep.Engines) != 1 {
		t.Fatalf("engines %q, want one", engineIDs(rep))
	}
	e := rep.Engines[0]
	if e.WeightsGiB == nil || *e.WeightsGiB != 20.25 || e.Evidence["weights_gib"] != "n.log:4" {
		t.Errorf("weights %v at %q, want the largest rank's 20.25 at n.log:4", e.WeightsGiB, e.Evidence["weights_gib"])
	}
	if e.WeightsSeconds != nil {
		t.Errorf("weights_seconds %v: pid 14 logged no time; another rank's must not be paired with its size", *e.WeightsSeconds)
	}
	if e.SlowestWeightsSeconds == nil || *e.SlowestWeightsSeconds != 95.25 || e.Evidence["slowest_weights_seconds"] != "n.log:3" {
		t.Errorf("slowest load %v at %q, want 95.25 at n.log:3", e.SlowestWeightsSeconds, e.Evidence["slowest_weights_seconds"])
	}
	if len(e.WeightsByRank) != 2 || e.WeightsByRank[0].GiB != 17.5 || e.WeightsByRank[1].GiB != 20.25 {
		t.Errorf("weights by rank %+v, want pid 12's 17.5 and pid 14's 20.25", e.WeightsByRank)
	}
	if r := rankByLabel(t, e, "RayWorkerWrapper pid=12"); r.WeightsGiB == nil || *r.WeightsGiB != 17.5 {
		t.Errorf("pid 12's own weights %v, want 17.5", r.WeightsGiB)
	}
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"weights 20.25 (the largest rank's: RayWorkerWrapper pid=12 17.5, RayWorkerWrapper pid=14 ip=10.0.0.1 20.25",
		"that rank logged no load time; the slowest rank's: 95.2 s)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestWeightsPairFromOneRank: when the largest rank logs its size and time
// on one line (V1's "Model loading took X GiB and Y seconds"), the pair is
// that rank's even when the first rank logged first; equal sizes keep the
// first rank's (TP ranks) and list nothing.
func TestWeightsPairFromOneRank(t *testing.T) {
	pp := "(Worker_PP0 pid=7) INFO 06-01 10:00:00 [gpu_model_runner.py:4879] Model loading took 30.1 GiB memory and 40.5 seconds\n" +
		"(Worker_PP1 pid=8) INFO 06-01 10:00:01 [gpu_model_runner.py:4879] Model loading took 33.4 GiB memory and 61.0 seconds\n"
	e := oneFile(t, pp).Engines[0]
	if e.WeightsGiB == nil || *e.WeightsGiB != 33.4 || e.WeightsSeconds == nil || *e.WeightsSeconds != 61 {
		t.Errorf("weights %v (%v s), want PP1's 33.4 with its own 61 s", e.WeightsGiB, e.WeightsSeconds)
	}
	if e.Evidence["weights_gib"] != "n.log:2" || e.Evidence["weights_seconds"] != "n.log:2" || e.SlowestWeightsSeconds != nil {
		t.Errorf("evidence %q / %q, slowest %v: want both n.log:2 and no separate time", e.Evidence["weights_gib"], e.Evidence["weights_seconds"], e.SlowestWeightsSeconds)
	}
	tp := "(Worker_TP0 pid=7) INFO 06-01 10:00:00 [gpu_model_runner.py:4879] Model loading took 30.1 GiB memory and 40.5 seconds\n" +
		"(Worker_TP1 pid=8) INFO 06-01 10:00:01 [gpu_model_runner.py:4879] Model loading took 30.1 GiB memory and 42.0 seconds\n"
	e = oneFile(t, tp).Engines[0]
	if e.WeightsSeconds == nil || *e.WeightsSeconds != 40.5 || e.Evidence["weights_gib"] != "n.log:1" || e.WeightsByRank != nil {
		t.Errorf("TP ranks alike: %v s at %q, by rank %+v; want TP0's 40.5 at n.log:1 and no list", e.WeightsSeconds, e.Evidence["weights_gib"], e.WeightsByRank)
	}
	// No rank logged a size: the time alone is the slowest rank's.
	times := "(Worker_TP0 pid=7) INFO 06-01 10:00:00 [default_loader.py:384] Loading weights took 12.00 seconds\n" +
		"(Worker_TP1 pid=8) INFO 06-01 10:00:01 [default_loader.py:384] Loading weights took 14.50 seconds\n"
	e = oneFile(t, times).Engines[0]
	if e.WeightsGiB != nil || e.WeightsSeconds == nil || *e.WeightsSeconds != 14.5 || e.Evidence["weights_seconds"] != "n.log:2" {
		t.Errorf("times only: weights %v, %v s at %q; want none and TP1's 14.5 at n.log:2", e.WeightsGiB, e.WeightsSeconds, e.Evidence["weights_seconds"])
	}
}

// graphProfilingLine is gpu_worker.py's 0.20+ line (graphProfilingWording)
// with made-up figures.
const graphProfilingLine = "CUDA graph memory profiling is enabled (default since v0.21.0). The current --gpu-memory-utilization=0.9000 is equivalent to --gpu-memory-utilization=0.8800 without CUDA graph memory profiling. To maintain the same effective KV cache size as before, increase --gpu-memory-utilization to 0.9200. To disable, set VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0."

// TestGraphProfilingLineIsKVSizing (QA 41 D8): a TP 2 excerpt whose second
// worker's only start-up line is the CUDA graph profiling line and whose
// last line is that worker's. The profiling line is logged while the KV
// cache is sized, so the worker is in phase kv-cache and LOG002 names the
// file's last line. Its wording bounds the release: newer than 0.19.1,
// not 0.21.0 (the v0.20.0 tag has it, v0.19.1's words it otherwise; qa44a
// F11).
func TestGraphProfilingLineIsKVSizing(t *testing.T) {
	log := "(Worker_TP0 pid=9) INFO 05-07 20:28:11 [gpu_worker.py:460] Available KV cache memory: 7.50 GiB\n" +
		"(Worker_TP1 pid=10) INFO 05-07 20:28:11 [gpu_worker.py:475] " + graphProfilingLine + "\n" +
		"(EngineCore pid=5) INFO 05-07 20:28:11 [kv_cache_utils.py:1710] GPU KV cache size: 100,000 tokens\n" +
		"(Worker_TP1 pid=10) INFO 05-07 20:28:11 [kernel_warmup.py:44] Skipping FlashInfer autotune because it is disabled.\n"
	rep := oneFile(t, log)
	e := rep.Engines[0]
	if r := rankByLabel(t, e, "Worker_TP1 pid=10"); r.Phase != "kv-cache" {
		t.Errorf("Worker_TP1 phase %q, want kv-cache", r.Phase)
	}
	f := failureOf(t, rep, "LOG002")
	if f.Line != 4 || f.Rank != "Worker_TP1 pid=10" || strings.Contains(f.Message, "(the ") {
		t.Errorf("LOG002 at %s line %d: %q; want Worker_TP1's line 4, the file's last", f.Rank, f.Line, f.Message)
	}
	if e.Version != "" || e.VersionAfter != "0.19.1" || e.Evidence["version_after"] != "n.log:2" {
		t.Errorf("version %q, after %q at %q; want unknown, after 0.19.1 at n.log:2", e.Version, e.VersionAfter, e.Evidence["version_after"])
	}
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "vLLM ? (newer than 0.19.1 by the wording of n.log:2)") {
		t.Errorf("text lacks the version bound:\n%s", b.String())
	}
	// A logged release wins; the bound is then not reported.
	banner := "(EngineCore pid=5) INFO 05-07 20:27:00 [core.py:109] Initializing a V1 LLM engine (v0.22.1) with config: model='m'\n"
	e = oneFile(t, banner+log).Engines[0]
	if e.Version != "0.22.1" || e.VersionAfter != "" {
		t.Errorf("version %q, after %q; want 0.22.1 and no bound", e.Version, e.VersionAfter)
	}
	// 0.19's wording at the same step is kv-cache too, and bounds nothing.
	old := "(EngineCore pid=5) INFO 04-20 20:13:51 [gpu_worker.py:471] In v0.19, CUDA graph memory profiling will be enabled by default (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1), which more accurately accounts for CUDA graph memory during KV cache allocation.\n"
	e = oneFile(t, old).Engines[0]
	if e.Phase != "kv-cache" || e.VersionAfter != "" {
		t.Errorf("0.19 wording: phase %q, after %q; want kv-cache and no bound", e.Phase, e.VersionAfter)
	}
}

// TestEndsOutOfTimeOrder (QA 41 D8): Ray relays a worker's lines late, so
// the file's last line can be stamped before the one LOG002 names (the
// latest by vLLM's timestamps); the message says so instead of calling
// an earlier line the file's last.
func TestEndsOutOfTimeOrder(t *testing.T) {
	log := "(EngineCore_DP0 pid=50) (RayWorkerWrapper pid=21, ip=10.0.0.3) INFO 02-11 10:25:08 [default_loader.py:291] Loading weights took 9.00 seconds\n" +
		"(EngineCore_DP0 pid=50) (RayWorkerWrapper pid=22, ip=10.0.0.4) INFO 02-11 10:25:05 [model_runner_v1.py:2205] Loading model weights took 5.0000 GB\n"
	f := failureOf(t, oneFile(t, log), "LOG002")
	want := "n.log:1 (the latest by vLLM's timestamps: the file's last line, :2, RayWorkerWrapper pid=22 ip=10.0.0.4's, is stamped earlier, 02-11 10:25:05)"
	if f.Line != 1 || !strings.Contains(f.Message, want) {
		t.Errorf("LOG002 line %d: %q; want line 1 and %q", f.Line, f.Message, want)
	}
}

// TestLostOpeningParen (QA 41 D9): a line whose leading "(" a copy lost
// (vllm#37974's paste) still names its process: the Ray worker, relayed
// by engine core DP0, gets its error, not the unprefixed main process.
// Text that merely contains "name pid=N)" keeps its line as it is.
func TestLostOpeningParen(t *testing.T) {
	log := "EngineCore pid=300) (RayWorkerWrapper pid=31, ip=10.0.0.9) ERROR 03-24 15:39:40 [ray_utils.py:74] Error executing method 'initialize_from_config'. This might cause deadlock in distributed execution.\n"
	rep := oneFile(t, log)
	f := failureOf(t, rep, "LOG192")
	if f.Rank != "RayWorkerWrapper pid=31 ip=10.0.0.9" || f.Engine != "dp0" {
		t.Errorf("LOG192 on %q (%s), want the Ray worker of dp0", f.Rank, f.Engine)
	}
	single := "Worker_TP3 pid=77) INFO 05-07 20:28:11 [gpu_worker.py:460] Available KV cache memory: 7.50 GiB\n"
	e := oneFile(t, single).Engines[0]
	if r := rankByLabel(t, e, "Worker_TP3 pid=77"); r.AvailableKVGiB == nil || *r.AvailableKVGiB != 7.5 {
		t.Errorf("Worker_TP3's KV %v, want 7.5", r.AvailableKVGiB)
	}
	for _, text := range []string{
		"Worker pid=5) is what the tool printed, then nothing\n",
		"Killed Worker pid=5) (see above)\n",
	} {
		var l line
		var p parser
		p.parse([]byte(strings.TrimSuffix(text, "\n")), &l)
		if len(l.proc) != 0 {
			t.Errorf("%q: read process %q from text that starts no vLLM line", text, l.proc)
		}
	}
}

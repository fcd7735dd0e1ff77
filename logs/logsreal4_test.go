package logs

import (
	"fmt"
	"strings"
	"testing"
)

// TestRelayedFailure: one failure logged by two layers — the worker's
// Python exception behind its "(Worker_… pid=…)" prefix and the native
// library's own unprefixed stderr lines — is one finding with the other
// layer's lines as its evidence (vllm#46509's DeepEP timeout under
// kubectl logs --prefix). Two ranks failing alike stay two findings, and
// an unprefixed line far from the worker's, or in another pod, is its own.
func TestRelayedFailure(t *testing.T) {
	const pod = "[pod/p-0/vllm] "
	worker := pod + "(Worker_DP7_EP7 pid=4757) RuntimeError: DeepEP error: timeout (dispatch CPU)\n"
	cxx := func(prefix string, thread int) string {
		return fmt.Sprintf("%sDeepEP timeout check failed: rank = 7, thread = %d, value = 0)\n", prefix, thread)
	}
	filler := func(n int) string {
		return strings.Repeat(pod+"(Worker_DP7_EP7 pid=4757) INFO 06-23 10:00:00 [gpu_model_runner.py:1] still here\n", n)
	}
	cases := []struct {
		name, log string
		// want is "CODE:rank[+relayed count]" per finding, in order.
		want string
	}{
		{"python then c++", worker + cxx(pod, 0) + cxx(pod, 1), "LOG141:Worker_DP7_EP7 pid=4757+1x2"},
		{"c++ then python", cxx(pod, 0) + cxx(pod, 1) + cxx(pod, 2) + worker, "LOG141:Worker_DP7_EP7 pid=4757+1x3"},
		{"two ranks stay two", worker + pod + "(Worker_DP6_EP6 pid=4756) RuntimeError: DeepEP error: timeout (dispatch CPU)\n",
			"LOG141:Worker_DP7_EP7 pid=4757 LOG141:Worker_DP6_EP6 pid=4756"},
		{"far apart stay two", worker + filler(relayWindow+5) + cxx(pod, 0), "LOG141:Worker_DP7_EP7 pid=4757 LOG141:main"},
		{"other pod stays two", worker + cxx("[pod/p-1/vllm] ", 0), "LOG141:Worker_DP7_EP7 pid=4757 LOG141:main"},
		{"unprefixed alone", cxx(pod, 0), "LOG141:main"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range failuresOf(t, c.log) {
				s := string(f.Code) + ":" + f.Rank
				for _, r := range f.Relayed {
					s += fmt.Sprintf("+%dx%d", len(f.Relayed), r.Count)
					if r.Rank != "main" || !strings.Contains(r.Text, "DeepEP timeout check failed") {
						t.Errorf("relay %+v", r)
					}
				}
				got = append(got, s)
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
}

// TestOuterEnginePrefix: V1's Ray executor relays its workers' lines
// under the engine core's prefix ("(EngineCore_DP0 pid=…)
// (RayWorkerWrapper pid=…)", LMCache/LMCache#2236; vllm-ascend#4037 shows
// the same for "(Worker pid=…)"): the worker serves that engine's DP rank,
// so its figures are that engine's. A worker that names its own DP rank
// keeps it, and a Ray actor wrapping an engine core (verl#4926) is not an
// engine.
func TestOuterEnginePrefix(t *testing.T) {
	kv := "INFO 12-11 21:40:01 [gpu_worker.py:298] Available KV cache memory: 10.50 GiB\n"
	cases := []struct {
		name, log string
		want      string // engine id:available KV@rank that logged it, per engine
	}{
		{"ray worker under dp0", "(EngineCore_DP0 pid=527163) (RayWorkerWrapper pid=514818) " + kv, "dp0:10.5@RayWorkerWrapper pid=514818"},
		{"ray worker under dp3", "(EngineCore_DP3 pid=527163) (RayWorkerWrapper pid=514818) " + kv, "dp3:10.5@RayWorkerWrapper pid=514818"},
		{"own dp rank kept", "(EngineCore_DP3 pid=527163) (Worker_DP1_TP0 pid=514818) " + kv, "dp1:10.5@Worker_DP1_TP0 pid=514818"},
		// ray-project/ray#66230: Ray Serve's replica actor (a name with
		// ':'), the engine core, the Ray executor's actor and the worker.
		{"ray serve replica", "(ServeReplica:anthropic-direct:LLMServer:claude-sonnet-4-5-20250929 pid=28488) (EngineCore pid=29087) (RayWorkerProc pid=29271) (Worker pid=29271) " + kv, "dp0:10.5@Worker pid=29271"},
		{"actor wraps engine", "(vLLMHttpServer pid=62552, ip=172.17.207.216) (EngineCore_DP1 pid=62912) " + kv, "dp1:10.5@EngineCore_DP1 pid=62912 ip=172.17.207.216"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := analyzeStrings(t, map[string]string{"n.log": c.log}, "n.log")
			var got []string
			for _, e := range rep.Engines {
				v := "nil"
				if e.AvailableKVGiB != nil {
					v = fmt.Sprint(*e.AvailableKVGiB)
				}
				for _, r := range e.Ranks {
					if r.AvailableKVGiB != nil {
						v += "@" + r.Label
					}
				}
				got = append(got, e.ID+":"+v)
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("engines %q, want %q", g, c.want)
			}
		})
	}
}

// TestRayTaskErrorLine: Ray names a remote task's exception after its
// cause ("ray.exceptions.RayTaskError(AcceleratorError): …",
// python/ray/exceptions.py): that line ends the traceback, so the log is
// not cut and the exception is the failure's evidence.
func TestRayTaskErrorLine(t *testing.T) {
	log := "(EngineCore_DP0 pid=527163)     raise val.as_instanceof_cause()\n" +
		"(EngineCore_DP0 pid=527163) ray.exceptions.RayTaskError(AcceleratorError): ray::RayWorkerWrapper.__ray_call__() (pid=514820, ip=192.168.3.2)\n"
	fs := failuresOf(t, log)
	if len(fs) != 1 || fs[0].Code == CodeStopped || !strings.Contains(fs[0].Message, "RayTaskError(AcceleratorError)") {
		t.Fatalf("failures %+v, want the RayTaskError line", fs)
	}
	for _, s := range []string{"RuntimeError(x): y", "RayTaskError(Accelerator Error): y"} {
		if m := exceptionLine.FindSubmatch([]byte(s)); m != nil && strings.Contains(string(m[1]), "(") {
			t.Errorf("%q read as exception %q", s, m[1])
		}
	}
}

// TestHCCLWatchdog: torch_npu's HCCL watchdog abort (vllm-ascend#16111) is
// a collective failure, one per rank, with the C++ runtime's "what():"
// line as its relayed evidence; the torch warning before it is none.
func TestHCCLWatchdog(t *testing.T) {
	log := "[rank7]:[W907 12:48:03.164523035 Logger.cpp:75] Warning: Failed to generate log message. (function operator())\n" +
		"[rank7]:[E907 12:48:03.164651138 ProcessGroupHCCL.cpp:2011] [Rank 3] HCCL watchdog thread terminated with exception:\n" +
		"[ERROR] 2026-09-07-12:48:03 (PID:2609, Device:7, RankID:-1) ERR02005 DIST internal error\n" +
		"terminate called after throwing an instance of 'std::runtime_error'\n" +
		"  what():  [Rank 3] HCCL watchdog thread terminated with exception:\n"
	fs := failuresOf(t, log)
	if codesOf(fs) != "LOG121:nccl" || fs[0].Rank != "rank7" || len(fs[0].Relayed) != 1 || fs[0].Relayed[0].Line != 5 {
		t.Fatalf("failures %+v", fs)
	}
	if !strings.Contains(fs[0].Fix, "HCCL_IF_IP") {
		t.Errorf("fix %q lacks the HCCL settings", fs[0].Fix)
	}
	if fs := failuresOf(t, "[rank7]:[W907 12:48:03.164523035 Logger.cpp:75] Warning: Failed to generate log message. (function operator())\n"); len(fs) != 0 {
		t.Errorf("the torch warning alone read as %+v", fs)
	}
}

// TestROCmMemoryFault: ROCR's fault line (vllm#43605) is the failure of a
// process that then aborts; an unprefixed line among the workers' is
// enough for the file to be read as a vLLM log.
func TestROCmMemoryFault(t *testing.T) {
	log := "(Worker_TP3_EP3 pid=891) [aiter] import [module_moe_sorting] under /usr/local/lib/python3.12/dist-packages/aiter/jit/module_moe_sorting.so\n" +
		"Memory access fault by GPU node-3 (Agent handle: 0x13e852f0) on address 0x77d445e00000. Reason: Unknown.\n"
	fs := failuresOf(t, log)
	if codesOf(fs) != "LOG191:other" || fs[0].Line != 2 || !strings.Contains(fs[0].Message, "ROCm's runtime aborted") ||
		!strings.Contains(fs[0].Fix, "VLLM_ROCM_USE_AITER") || strings.Contains(fs[0].Fix, "does not recognise") {
		t.Fatalf("failures %+v", fs)
	}
}

// TestCaretCR: a carriage return shown as "^M" (vllm#53743's paste) is
// not part of the line: a trailing one is dropped, and a redrawn line
// keeps its last segment, as a real '\r' does.
func TestCaretCR(t *testing.T) {
	cases := []struct{ in, msg string }{
		{"(APIServer pid=133844) INFO 08-29 02:16:04 [api_utils.py:347]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.1.dev20175+g2573878a3.d20260821^M", "▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.1.dev20175+g2573878a3.d20260821"},
		{"(APIServer pid=133844) INFO 08-29 02:16:04 [api_utils.py:347] ^M", ""},
		{"Loading weights:  50%|#####     | 1/2^MINFO 08-29 02:16:05 [default_loader.py:1] Loading weights took 1.00 seconds^M", "Loading weights took 1.00 seconds"},
		{"INFO 08-29 02:16:05 [x.py:1] a caret ^ and an M stay", "a caret ^ and an M stay"},
	}
	for _, c := range cases {
		var p parser
		l := line{}
		p.parse([]byte(c.in), &l)
		if got := strings.TrimSpace(string(l.msg)); got != c.msg {
			t.Errorf("%q: msg %q, want %q", c.in, got, c.msg)
		}
	}
	rep := analyzeStrings(t, map[string]string{"n.log": "(APIServer pid=1) INFO 08-29 02:16:04 [api_utils.py:347]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.1.dev20175+g2573878a3.d20260821^M\n"}, "n.log")
	if len(rep.Engines) == 0 || rep.Engines[0].Version != "0.1.dev20175+g2573878a3.d20260821" {
		t.Errorf("engines %+v", rep.Engines)
	}
}

// TestCurrentKVInUse: the free-memory summary's last sentence is the KV
// cache the worker allocated (gpu_worker.py's available_kv_cache_memory_bytes),
// in GiB since 0.2x (noonghunna/club-3090#1139) and in bytes before (Sep 2025).
func TestCurrentKVInUse(t *testing.T) {
	cases := []struct {
		name, log string
		want      map[string]any
	}{
		{"GiB (0.2x)", "(Worker_TP0 pid=150) INFO 09-02 13:12:19 [gpu_worker.py:789] Free memory on device (23.15/23.56 GiB) on startup. Desired GPU memory utilization is (0.92, 21.67 GiB). Actual usage is 15.25 GiB for consumed memory (weights + non-torch), 1.66 GiB for peak activation, and 0.14 GiB for CUDAGraph memory. Replace gpu_memory_utilization config with `--kv-cache-memory=4805904446` (4.48 GiB) to fit into requested memory, or `--kv-cache-memory=6390038016` (5.95 GiB) to fully utilize gpu memory. Current kv cache memory in use is 4.76 GiB.\n",
			map[string]any{"available_kv_gib": 4.76, "gpu_total_gib": 23.56, "cuda_graph_gib": 0.14}},
		// 59212694937 B / 2^30 = 55.146 GiB.
		{"bytes (0.10–0.11)", "(EngineCore_DP0 pid=3021) INFO 09-23 18:12:39 [gpu_worker.py:391] Free memory on device (78.66/79.19 GiB) on startup. Desired GPU memory utilization is (0.9, 71.27 GiB). Actual usage is 14.08 GiB for weight, 1.97 GiB for peak activation, 0.07 GiB for non-torch memory, and 0.67 GiB for CUDAGraph memory. Replace gpu_memory_utilization config with `--kv-cache-memory=58333988249` to fit into requested memory, or `--kv-cache-memory=66273897472` to fully utilize gpu memory. Current kv cache memory in use is 59212694937 bytes.\n",
			map[string]any{"available_kv_gib": 55.15, "weights_gib": 14.08}},
		// The Available line comes first and is the same figure.
		{"with the Available line", "(EngineCore pid=1) INFO 08-21 18:21:50 [gpu_worker.py:1] Available KV cache memory: 27.85 GiB\n(Worker_TP1 pid=771) INFO 08-21 18:22:06 [gpu_worker.py:789] Current kv cache memory in use is 27.85 GiB.\n",
			map[string]any{"available_kv_gib": 27.85}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkOneEngine(t, c.log, c.want, nil) })
	}
}

package logs

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// rule is one thing a log line can say. The matcher hands a line to a rule
// only when one of its literal anchors occurs in the message; the regular
// expression (if any) then confirms and captures.
type rule struct {
	anchors []string
	re      *regexp.Regexp
	// start marks a line that begins a new server invocation (a restart in
	// the same file starts a new attempt).
	start bool
	// plain skips traceback source lines ("    raise ...").
	plain bool
	apply func(c *ctx, m [][]byte)
}

// ctx is what a rule sees of the line it fires on.
type ctx struct {
	a *analyzer
	f *fileState
	r *run // the start-up of the line's origin
	p *proc
	l *line
	// failed is set when a rule recorded a failure from the line, noted
	// when it kept the line as an exception or a wrapper: either way the
	// line is not an unrecognised ERROR line. waits is set when the line
	// says the process is waiting for another one (proc.waiting).
	failed, noted, waits bool
}

func (c *ctx) num(k field, b []byte) {
	if v, ok := parseNum(b); ok {
		c.p.facts.setNum(k, v, c.l.no)
	}
}

func (c *ctx) numForce(k field, b []byte) {
	if v, ok := parseNum(b); ok {
		c.p.facts[k] = val{num: v, set: true, line: c.l.no}
	}
}

func (c *ctx) str(k field, b []byte) { c.p.facts.setStr(k, string(b), c.l.no) }

func (c *ctx) phase(ph phase) {
	c.p.advance(ph, c.l.no)
	switch ph {
	case phProfiling:
		c.r.profiled = true
	case phKVCache:
		c.r.kvSized = true
	}
	if ph > c.r.maxPhase {
		c.r.maxPhase = ph
	}
}

// parseNum reads "476,016", "14.9888" or "-2.14".
func parseNum(b []byte) (float64, bool) {
	if bytes.IndexByte(b, ',') >= 0 {
		b = bytes.ReplaceAll(b, []byte(","), nil)
	}
	v, err := strconv.ParseFloat(string(b), 64)
	return v, err == nil
}

// r builds a rule from anchors, an optional pattern and what to do.
func r(anchors []string, pattern string, apply func(c *ctx, m [][]byte)) rule {
	var re *regexp.Regexp
	if pattern != "" {
		re = regexp.MustCompile(pattern)
	}
	return rule{anchors: anchors, re: re, apply: apply}
}

// phaseRule advances the process to ph when an anchor occurs.
func phaseRule(ph phase, anchors ...string) rule {
	return r(anchors, "", func(c *ctx, _ [][]byte) { c.phase(ph) })
}

// waitRule is a phaseRule whose line also says that the process is waiting
// for another one: a log that ends on it shows a stuck start-up (LOG001),
// not an excerpt (LOG002). phNone leaves the phase as it is.
func waitRule(ph phase, anchors ...string) rule {
	return r(anchors, "", func(c *ctx, _ [][]byte) {
		c.waits = true
		if ph != phNone {
			c.phase(ph)
		}
	})
}

func one(s string) []string { return []string{s} }

// ruleTable is every fact and phase rule; failure rules are in failrules.go.
// Each pattern cites the release whose log it was written from (fixtures
// under testdata/real name the issue).
func ruleTable() []rule {
	var rs []rule
	rs = append(rs, versionRules()...)
	rs = append(rs, argRules()...)
	rs = append(rs, weightRules()...)
	rs = append(rs, budgetRules()...)
	rs = append(rs, kvRules()...)
	rs = append(rs, v1BlockRules()...)
	rs = append(rs, graphRules()...)
	rs = append(rs, backendRules()...)
	rs = append(rs, rankRules()...)
	rs = append(rs, phaseRules()...)
	rs = append(rs, kvConnectorRules()...)
	rs = append(rs, profileRules()...)
	rs = append(rs, runtimeRules()...)
	return rs
}

// graphProfilingWording is how gpu_worker.py says that CUDA graph memory
// profiling is on ("CUDA graph memory profiling is enabled (default since
// v0.21.0). The current --gpu-memory-utilization=…"). The "v0.21.0" in it
// is not the release that logs it: vLLM 0.20.0 already prints this line
// (a start-up log of the vllm/vllm-openai:v0.20.0-cu130-ubuntu2404 image,
// banner "version 0.20.0", engine "(v0.20.0)", gpu_worker.py:455,
// 2026-05-01), while 0.19.0 words the same step "In v0.19, CUDA graph
// memory profiling will be enabled by default (…)" (engine "(v0.19.0)",
// gpu_worker.py:471, 2026-04-20). PR #38284 ("Enable CUDAGraph memory
// profiling by default", opened 2026-03-26, "slated for default
// enablement in v0.21") is the likely change; which PR wrote this wording
// and whether a 0.19.x patch release carries it was not verified then. The
// tags settle it (qa44a F11): vllm/v1/worker/gpu_worker.py has the wording
// at v0.20.0 (:456), while v0.19.1's says "(VLLM_MEMORY_PROFILER_ESTIMATE_
// CUDAGRAPHS=1). This will become the default in v0.19." (:453). So the
// line shows 0.20.0 or later: a release after 0.19.1 (graphProfilingAfter).
const graphProfilingWording = "CUDA graph memory profiling is enabled (default since v0.21.0)"

// graphProfilingAfter is the release a log with graphProfilingWording
// is newer than.
const graphProfilingAfter = "0.19.1"

func versionRules() []rule {
	api := r(one("vLLM API server version "), `vLLM API server version (\S+)`, func(c *ctx, m [][]byte) {
		c.str(fVersion, m[1])
		c.phase(phStart)
	})
	api.start = true
	// "Initializing an LLM engine (v0.5.3.post1) with config: ..." (V0 to 0.7),
	// "Initializing a V0 LLM engine (v0.8.5...)", "a V1 LLM engine (v0.19.0)".
	engine := r(one("LLM engine (v"), `Initializing an? (?:(V[01]) )?LLM engine \(v([^)\s]+)\) with config: (.*)$`, func(c *ctx, m [][]byte) {
		gen := "V0"
		if len(m[1]) > 0 {
			gen = string(m[1])
		}
		c.str(fEngineGen, []byte(gen))
		c.str(fVersion, m[2])
		applyConfig(c, parsePyKV(string(m[3])))
		c.phase(phConfig)
	})
	// The 0.11+ banner: "█▄█▀ █ ... █  version 0.19.0" and "█  model   Qwen/...".
	banner := r(one("█  version "), `version\s+(\S+)\s*$`, func(c *ctx, m [][]byte) {
		c.str(fVersion, m[1])
		c.phase(phStart)
	})
	banner.start = true
	model := r(one("█  model "), `model\s+(\S+)\s*$`, func(c *ctx, m [][]byte) { c.str(fModel, m[1]) })
	// 0.11+ (config/model.py): "Resolved architecture: Glm5NextForConditionalGeneration".
	arch := r(one("Resolved architecture: "), `Resolved architecture: ([A-Za-z_]\w*)\s*$`, func(c *ctx, m [][]byte) { c.str(fArchitecture, m[1]) })
	// 0.31 (gpu_worker.py): "Using V2 Model Runner".
	runner := r(one(" Model Runner"), `^Using (V\d+) Model Runner\s*$`, func(c *ctx, m [][]byte) { c.str(fModelRunner, m[1]) })
	return []rule{api, engine, banner, model, arch, runner}
}

func argRules() []rule {
	return []rule{
		r(one("non-default args: "), `non-default args: (\{.*\})\s*$`, func(c *ctx, m [][]byte) {
			applyArgs(c, parsePyDict(string(m[1])))
		}),
		r(one("args: Namespace("), `args: Namespace\((.*?)\)?\s*$`, func(c *ctx, m [][]byte) {
			applyArgs(c, trimNamespace(parsePyKV(string(m[1]))))
		}),
		r(one("Using max model len "), `Using max model len (\d+)`, func(c *ctx, m [][]byte) { c.num(fMaxModelLen, m[1]) }),
		r(one("max_num_batched_tokens="), `Chunked prefill is enabled with max_num_batched_tokens=(\d+)`, func(c *ctx, m [][]byte) {
			c.num(fMaxBatched, m[1])
		}),
		r(one("Connecting to existing Ray cluster at address: "), `at address: ([^\s.]+(?:\.[^\s.]+)*:\d+)`, func(c *ctx, m [][]byte) {
			c.str(fRayAddress, m[1])
		}),
	}
}

func weightRules() []rule {
	return []rule{
		// V0 (0.5–0.8): "Loading model weights took 14.9888 GB" (the figure is
		// GiB: model_memory_usage / 2**30), "... and 4.38 seconds" from PR #13666.
		r(one("Loading model weights took "), `Loading model weights took (-?[\d.]+) ?Gi?B(?: and ([\d.]+) ?s)?`, func(c *ctx, m [][]byte) {
			c.num(fWeightsGiB, m[1])
			c.numForce(fWeightsSec, m[2])
			c.phase(phLoaded)
		}),
		// V1: "Model loading took 0.2389 GB and 0.97 seconds" (0.8.0),
		// "... 65.9651 GiB and 12.79 seconds" (0.10), "... 56.88 GiB memory and 56.26 seconds" (0.19).
		r(one("Model loading took "), `Model loading took (-?[\d.]+) ?Gi?B(?: memory)?(?: and ([\d.]+) ?s)?`, func(c *ctx, m [][]byte) {
			c.num(fWeightsGiB, m[1])
			c.numForce(fWeightsSec, m[2])
			c.phase(phLoaded)
		}),
		// The loader's own timer (0.10+), kept only when no total is logged.
		// The loader logs it once it read the checkpoint, before the
		// weights' post-processing that "Model loading took" closes: the
		// process is then post-processing the weights (phPostLoad). It was
		// loading-weights, which DeepGEMM#301's worker DP0 kept although
		// its last line (fp8.py's "Using MoEPrepareAndFinalize…", logged
		// while setting up the FP8 MoE kernels) came 7 s after the timer.
		r(one("Loading weights took "), `^Loading weights took ([\d.]+) ?s`, func(c *ctx, m [][]byte) {
			c.num(fWeightsSec, m[1])
			c.phase(phPostLoad)
		}),
		// V0 0.6.6–0.8 profile summary and the tabular form of PR #10511.
		r(one("model weights take"), `model weights take\s+([\d.]+)\s?GiB`, func(c *ctx, m [][]byte) { c.num(fWeightsGiB, m[1]) }),
		// V1 (0.10+, DEBUG): "... weights memory: 29.43GiB."
		r(one("weights memory: "), `weights memory: ([\d.]+)\s?GiB`, func(c *ctx, m [][]byte) { c.num(fWeightsGiB, m[1]) }),
	}
}

func budgetRules() []rule {
	return []rule{
		// V0 0.6.6–0.8: "model weights take 39.66GiB; non_torch_memory takes 2.53GiB;
		// PyTorch activation peak memory takes 0.24GiB; the rest of the memory reserved for KV Cache is 97.29GiB."
		r(one("non_torch_memory takes "), `non_torch_memory takes ([\d.]+)\s?GiB; PyTorch activation peak memory takes ([\d.]+)\s?GiB; the rest of the memory reserved for KV Cache is (-?[\d.]+)\s?GiB`, func(c *ctx, m [][]byte) {
			c.num(fNonTorchGiB, m[1])
			c.num(fActivationGiB, m[2])
			c.num(fAvailableKVGiB, m[3])
			c.phase(phKVCache)
		}),
		// V0 0.6.4: one line with peak torch memory (weights included).
		r(one("Memory profiling results: total_gpu_memory="), `total_gpu_memory=([\d.]+)GiB .*peak_torch_memory=([\d.]+)GiB .*non_torch_memory=([\d.]+)GiB kv_cache_size=(-?[\d.]+)GiB gpu_memory_utilization=([\d.]+)`, func(c *ctx, m [][]byte) {
			c.num(fGPUTotalGiB, m[1])
			if v, ok := parseNum(m[2]); ok && !c.p.peakTorch.set {
				c.p.peakTorch = val{num: v, set: true, line: c.l.no}
			}
			c.num(fNonTorchGiB, m[3])
			c.num(fAvailableKVGiB, m[4])
			c.num(fUtil, m[5])
			c.phase(phKVCache)
		}),
		// PR #10511's tabular summary (Dec 2024 main).
		r(one("non_torch_memory "), `^non_torch_memory\s+([\d.]+)\s?GiB`, func(c *ctx, m [][]byte) { c.num(fNonTorchGiB, m[1]) }),
		r(one("PyTorch activation peak memory "), `^PyTorch activation peak memory\s+([\d.]+)\s?GiB`, func(c *ctx, m [][]byte) { c.num(fActivationGiB, m[1]) }),
		r(one("available_kv_cache_memory "), `^available_kv_cache_memory\s+(-?[\d.]+)\s?GiB`, func(c *ctx, m [][]byte) {
			c.num(fAvailableKVGiB, m[1])
			c.phase(phKVCache)
		}),
		r(one("total_gpu_memory "), `^total_gpu_memory\s+([\d.]+)\s?GiB`, func(c *ctx, m [][]byte) { c.num(fGPUTotalGiB, m[1]) }),
		r(one("gpu_memory_utilization "), `^gpu_memory_utilization\s+([\d.]+)\s*$`, func(c *ctx, m [][]byte) { c.num(fUtil, m[1]) }),
		// V1 (0.10+, DEBUG): "torch peak memory increase: 1.93GiB; non-torch forward increase memory: 0.26GiB".
		r(one("torch peak memory increase: "), `torch peak memory increase: ([\d.]+)\s?GiB; non-torch forward increase memory: ([\d.]+)\s?GiB`, func(c *ctx, m [][]byte) {
			c.num(fActivationGiB, m[1])
			c.num(fNonTorchGiB, m[2])
		}),
		// 0.19 (DEBUG): "Actual usage is 29.43 GiB for weight, 1.93 GiB for peak activation,
		// 0.26 GiB for non-torch memory, and 1.57 GiB for CUDAGraph memory."
		// vllm-ascend's NPU worker (worker.py, vllm-project/vllm-ascend#8289, Apr 2026)
		// prints the same four terms as "Actual usage: 1.14 GiB for weights, 0.22 GiB for
		// peak activation, 0.13 GiB for non-torch memory, 0.04 GiB for NPU graph memory."
		r([]string{"Actual usage is ", "Actual usage: "}, `Actual usage(?: is|:) ([\d.]+) GiB for weights?, ([\d.]+) GiB for peak activation, ([\d.]+) GiB for non-torch memory,(?: and)? ([\d.]+) GiB for (?:CUDAGraph|NPU graph) memory`, func(c *ctx, m [][]byte) {
			c.num(fWeightsGiB, m[1])
			c.num(fActivationGiB, m[2])
			c.num(fNonTorchGiB, m[3])
			c.num(fCUDAGraphGiB, m[4])
		}),
		// 0.26+ (gpu_worker.py): "... Actual usage is 39.26 GiB for consumed memory
		// (weights + non-torch), 3.28 GiB for peak activation, and 0.47 GiB for CUDAGraph memory."
		r(one("for consumed memory (weights + non-torch)"), `Actual usage is ([\d.]+) GiB for consumed memory \(weights \+ non-torch\), ([\d.]+) GiB for peak activation, and ([\d.]+) GiB for CUDAGraph memory`, func(c *ctx, m [][]byte) {
			if v, ok := parseNum(m[1]); ok && !c.p.consumed.set {
				c.p.consumed = val{num: v, set: true, line: c.l.no}
			}
			c.num(fActivationGiB, m[2])
			c.num(fCUDAGraphGiB, m[3])
		}),
		// 0.21+ (gpu_worker.py, profiling on by default): "CUDA graph memory profiling is
		// enabled (default since v0.21.0). The current --gpu-memory-utilization=0.9000 is
		// equivalent to --gpu-memory-utilization=0.8842 without CUDA graph memory profiling. ..."
		// gpu_worker.py's determine_available_memory logs it right after
		// "Available KV cache memory" (the 0.20.0 and 0.27.1 logs below):
		// the KV cache is being sized (phase kv-cache). Its wording also
		// bounds the release (graphProfilingWording).
		// A terminal cuts the line short ("… equivalent to
		// --gpu-memory-utilization=0.8829 without >", noonghunna/club-3090#758):
		// the two figures come before the cut, so the anchor ends there.
		r(one("is equivalent to --gpu-memory-utilization="), `current --gpu-memory-utilization=([\d.]+) is equivalent to --gpu-memory-utilization=(\d+(?:\.\d+)?)`, func(c *ctx, m [][]byte) {
			c.num(fUtil, m[1])
			c.num(fUtilNoGraphProfiling, m[2])
			c.phase(phKVCache)
			if bytes.Contains(c.l.msg, []byte(graphProfilingWording)) {
				c.str(fVersionAfter, []byte(graphProfilingAfter))
			}
		}),
		// The wording before it, at the same step: "In v0.19, CUDA graph
		// memory profiling will be enabled by default (...). To try it now,
		// set VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 ..." (a 0.19.0 log,
		// engine "v0.19.0", gpu_worker.py:471; 0.17.0rc1.dev149 in PR
		// #30515's thread, gpu_worker.py:490).
		phaseRule(phKVCache, "CUDA graph memory profiling will be enabled by default"),
		r(one("x gpu_memory_utilization ("), `total_gpu_memory \(([\d.]+)\s?GiB\) x gpu_memory_utilization \(([\d.]+)\)`, func(c *ctx, m [][]byte) {
			c.num(fGPUTotalGiB, m[1])
			c.num(fUtil, m[2])
			c.phase(phProfiling)
		}),
		r(one("Free memory on device "), `Free memory on device (?:\S+ )?\(([\d.]+)/([\d.]+) GiB\) on startup.*?\(([\d.]+), ([\d.]+) GiB\)`, func(c *ctx, m [][]byte) {
			c.num(fGPUTotalGiB, m[2])
			c.num(fUtil, m[3])
		}),
		// The same summary ends with the KV cache the worker allocated,
		// GiB(self.available_kv_cache_memory_bytes) in gpu_worker.py
		// compile_or_warm_up_model (0.2x: "Current kv cache memory in use is
		// 4.76 GiB."; 0.10–0.11 printed the bytes: "… is 59212694937 bytes."):
		// the figure "Available KV cache memory" gives, and the only one when
		// an excerpt has the summary alone (noonghunna/club-3090#1139).
		r(one("Current kv cache memory in use is "), `Current kv cache memory in use is (\d+(?:\.\d+)?) (GiB|bytes)\b`, func(c *ctx, m [][]byte) {
			if string(m[2]) == "GiB" {
				c.num(fAvailableKVGiB, m[1])
				return
			}
			if v, ok := parseNum(m[1]); ok {
				c.p.facts.setNum(fAvailableKVGiB, math.Round(v/(1<<30)*100)/100, c.l.no)
			}
		}),
		r(one("worker init memory snapshot"), `total_memory=([\d.]+)GiB`, func(c *ctx, m [][]byte) { c.num(fGPUTotalGiB, m[1]) }),
	}
}

func kvRules() []rule {
	return []rule{
		r(one("Available KV cache memory: "), `Available KV cache memory: (-?[\d.]+) ?GiB`, func(c *ctx, m [][]byte) {
			c.num(fAvailableKVGiB, m[1])
			c.phase(phKVCache)
		}),
		// 0.26: "reserved 49.0 GiB memory for KV Cache as specified by kv_cache_memory_bytes config".
		r(one("memory for KV Cache as specified by kv_cache_memory_bytes"), `reserved ([\d.]+) GiB memory for KV Cache`, func(c *ctx, m [][]byte) {
			c.num(fAvailableKVGiB, m[1])
			c.phase(phKVCache)
		}),
		// The CPU backend sizes its KV cache from host memory and never logs
		// "Available KV cache memory". What it logs instead, by release:
		//   - vllm/executor/cpu_executor.py at 4c537ad27d7ecf7af21cd3c7f9dbcbb6cd291a0b
		//     (V0, ≈0.5–0.6): "Environment variable VLLM_CPU_KVCACHE_SPACE (GB)
		//     for CPU backend is not set, using 4 by default.", and at the KV
		//     step "# CPU blocks: %d" — the KV cache's blocks, which the CPU
		//     backend calls CPU blocks (a GPU engine's line has "# GPU blocks"
		//     first, its CPU blocks being swap space);
		//   - vllm/platforms/cpu.py at 0031bf29e940804ee8235f2b2da9536556f231e6
		//     (V0/early V1): the same line with "(GiB)" (4 GiB; nothing is
		//     logged when the variable is set);
		//   - vllm/platforms/cpu.py at f6ff3f0f903ec4dc46b3fae16e830715f52b9223:
		//     "VLLM_CPU_KVCACHE_SPACE not set. Using {:.2f} GiB for KV cache."
		//     (half of a NUMA node's memory; the MPS platform says "... GiB for
		//     KV cache on MPS."), logged while the config is checked, before
		//     the model loads — so it sets the figure but no phase;
		//   - vllm/v1/worker/cpu_worker.py at 00efcc3be11c84005fbe701003c513f8f503d57f
		//     determine_available_memory: "Explicitly set (X/T) GiB for KV cache
		//     on node N." or "Auto set (X/T) GiB for KV cache on node N, with
		//     R GiB requested memory for the worker. ...", X the KV cache, T the
		//     node's memory — the KV sizing step itself.
		r(one(" for CPU backend is not set, using "), `VLLM_CPU_KVCACHE_SPACE \((?:GiB|GB)\) for CPU backend is not set, using (\d+) by default`, func(c *ctx, m [][]byte) {
			c.num(fAvailableKVGiB, m[1])
		}),
		r(one("# CPU blocks: "), `^# CPU blocks: (\d+)\s*$`, func(c *ctx, m [][]byte) {
			c.num(fGPUBlocks, m[1])
			c.phase(phKVCache)
		}),
		r(one("VLLM_CPU_KVCACHE_SPACE not set. Using "), `VLLM_CPU_KVCACHE_SPACE not set\. Using ([\d.]+) GiB for KV cache`, func(c *ctx, m [][]byte) {
			c.num(fAvailableKVGiB, m[1])
		}),
		r(one(" GiB for KV cache on node "), `(?:Explicitly|Auto) set \(([\d.]+)/[\d.]+\) GiB for KV cache on node \d+`, func(c *ctx, m [][]byte) {
			c.numForce(fAvailableKVGiB, m[1])
			c.phase(phKVCache)
		}),
		// kv_cache_utils.py (0.11+, vllm.DCPLogSource): "Multiplying the GPU
		// KV cache size by the dcp_world_size 8." before the size line.
		r(one("Multiplying the GPU KV cache size by the dcp_world_size "), `dcp_world_size (\d+)`, func(c *ctx, m [][]byte) { c.num(fDCP, m[1]) }),
		r(one("GPU KV cache size: "), `GPU KV cache size: ([\d,]+) tokens`, func(c *ctx, m [][]byte) {
			c.num(fKVTokens, m[1])
			c.phase(phKVCache)
		}),
		// V0: "# GPU blocks: 27895, # CPU blocks: 2048" (0.5–0.6), "# cuda blocks: 5266" (0.7–0.8).
		r(one(" blocks: "), `(?:^|# ?|\s)(?:GPU|gpu|cuda|CUDA|npu|xpu|hpu|tpu|neuron) blocks: (\d+), # CPU blocks: (\d+)`, func(c *ctx, m [][]byte) {
			c.num(fGPUBlocks, m[1])
			c.phase(phKVCache)
		}),
		// Hybrid attention/mamba models (0.31, interface.py): "Setting kv cache block size
		// to 64 for DEEPSEEK_V32_INDEXER/... backend(s).", then "Setting attention block size
		// to 640 tokens to ensure that attention page size is >= mamba page size." — the
		// latter is the block size the cache is built with, so it overrides.
		r(one("Setting kv cache block size to "), `Setting kv cache block size to (\d+) for`, func(c *ctx, m [][]byte) { c.num(fBlockSize, m[1]) }),
		r(one("Setting attention block size to "), `Setting attention block size to (\d+) tokens`, func(c *ctx, m [][]byte) { c.numForce(fBlockSize, m[1]) }),
		r(one("Padding mamba page size by "), `Padding mamba page size by ([\d.]+)%`, func(c *ctx, m [][]byte) { c.num(fMambaPadPct, m[1]) }),
		// "Maximum concurrency for 8,192 tokens per request: 20.54x" on its own line
		// (≤0.19), or after "GPU KV cache size: 2,618,281 tokens, " on the same line (0.31):
		// both rules fire on that line.
		r(one("Maximum concurrency for "), `Maximum concurrency for ([\d,]+) tokens per request: ([\d.]+)x`, func(c *ctx, m [][]byte) {
			c.num(fConcurrencyLen, m[1])
			c.num(fConcurrency, m[2])
			c.phase(phKVCache)
		}),
	}
}

func graphRules() []rule {
	return []rule{
		// Enforce eager turns the graphs off: VllmConfig's check logs
		// "Enforce eager set, disabling torch.compile and CUDAGraphs. This
		// is equivalent to setting -cc.mode=none -cc.cudagraph_mode=none"
		// (vllm.py:892 in 0.19.1rc1.dev316, the GLM-5.1 fixture) and
		// "Cudagraph is disabled under eager mode" (vllm.py:1081 there):
		// as much as --enforce-eager in the arguments.
		r([]string{"Enforce eager set, disabling", "Cudagraph is disabled under eager mode"}, "", func(c *ctx, _ [][]byte) {
			if !c.l.indent {
				c.str(fEnforceEager, []byte("True"))
			}
		}),
		// "Graph capturing finished in 5 secs." (0.5) and "..., took 1.41 GiB" (0.6.5+).
		r(one("Graph capturing finished in "), `Graph capturing finished in (\d+) secs?(?:, took (-?[\d.]+) GiB)?`, func(c *ctx, m [][]byte) {
			if c.r.profiled && !c.r.kvSized {
				// From 0.21 (CUDA graph memory profiling on by default) the
				// memory profile captures the graphs once before the KV cache
				// is sized ("Graph capturing finished ..." then "Available KV
				// cache memory", aivrar/vllm-windows-build#17), and again after
				// it: a capture between the profile's start and any KV line is
				// the profile's, not the end of the start-up; the memory it
				// took is the profile capture's (the GLM-5.3 fixture: 0.99
				// GiB there, 0.47 GiB for the graphs kept), not the graphs'.
				c.phase(phProfiling)
				return
			}
			c.num(fGraphSec, m[1])
			c.num(fCUDAGraphGiB, m[2])
			c.phase(phEngineReady)
		}),
		r(one("CUDA graph pool memory: "), `CUDA graph pool memory: ([\d.]+) GiB \(actual\)(?:, ([\d.]+) GiB \(estimated\))?`, func(c *ctx, m [][]byte) {
			c.numForce(fCUDAGraphGiB, m[1])
			c.num(fCUDAGraphEstGiB, m[2])
			// gpu_worker.py logs it once the graphs are captured: a worker
			// that does not log "Graph capturing finished" (only TP0 does
			// in the GLM-5.1 DCP fixture) is as far.
			if c.r.kvSized {
				c.phase(phEngineReady)
			}
		}),
		r(one("Estimated CUDA graph memory: "), `Estimated CUDA graph memory: ([\d.]+) GiB total`, func(c *ctx, m [][]byte) {
			c.num(fCUDAGraphEstGiB, m[1])
		}),
	}
}

// attentionSources are the logger files of V0's backend choice
// ("Using XFormers backend." from selector.py, "Using Flash Attention backend." from cuda.py).
var attentionSources = [][]byte{[]byte("selector"), []byte("cuda.py"), []byte("rocm.py"), []byte("platforms"), []byte("attention")}

// backendRules read the attention and all-to-all backends. The attention
// backend is chosen as the model's layers are built (get_attn_backend from
// each Attention layer's constructor, after torch.distributed is up): a
// process that logs it is loading the model (phase loading-weights).
// vllm#29271's DP-4 excerpt ends with three engines' "Using FLASH_ATTN
// backend." after DP2's process-group line: DP2 "got least far" at
// distributed-init, and DP1 and DP3 were at no phase at all.
func backendRules() []rule {
	v0 := r(one(" backend."), `^Using ([A-Za-z][\w -]*?) [Bb]ackend\.$`, func(c *ctx, m [][]byte) {
		// "Using FLASH_ATTN MLA prefill backend." (selector.py, 0.2x) names
		// the MLA prefill's kernel, not the attention backend.
		if bytes.HasSuffix(m[1], []byte(" prefill")) {
			return
		}
		for _, s := range attentionSources {
			if bytes.Contains(c.l.src, s) {
				c.str(fAttention, m[1])
				c.phase(phLoading)
				return
			}
		}
	})
	return []rule{
		v0,
		r(one("attention backend out of potential backends"), `Using (\S+) attention backend out of`, func(c *ctx, m [][]byte) {
			c.str(fAttention, m[1])
			c.phase(phLoading)
		}),
		// A backend the user chose (--attention-backend), as 0.20's cuda.py
		// logs it: "Using AttentionBackendEnum.B12X_MLA_SPARSE backend."
		// (local-inference-lab/rtx6kpro's GLM-5.1 DCP start-up logs).
		r(one("Using AttentionBackendEnum."), `^Using AttentionBackendEnum\.(\w+) backend\.?$`, func(c *ctx, m [][]byte) { c.str(fAttention, m[1]) }),
		r(one("backend on V1 engine"), `Using (.+?) backend on V1 engine`, func(c *ctx, m [][]byte) { c.str(fAttention, m[1]) }),
		r(one("all2all"), `Using (.+?) all2allv? manager`, func(c *ctx, m [][]byte) {
			c.str(fAll2All, []byte(all2allName(string(m[1]))))
		}),
	}
}

// all2allName turns the manager vLLM names ("Using DeepEP Low-Latency
// all2all manager." in cuda_communicator.py; "naive", "PPLX", "DeepEP
// High-Throughput" likewise) into the --all2all-backend value it stands
// for, when vlaunch's backend table knows that value; else the name as logged.
func all2allName(s string) string {
	n := strings.ToLower(strings.NewReplacer(" ", "_", "-", "_").Replace(strings.TrimSpace(s)))
	if _, ok := vllm.KnownBackendEver(n); ok {
		return n
	}
	return s
}

func rankRules() []rule {
	return []rule{
		// 0.8+: "rank 0 in world size 2 is assigned as DP rank 0, PP rank 0, [PCP rank 0, ]TP rank 0, EP rank 0";
		// 0.31 adds "ETP rank 0, " before the EP rank.
		r(one("is assigned as DP rank "), `rank (\d+) in world size (\d+) is assigned as DP rank (\d+), PP rank (\d+),(?: PCP rank \d+,)? TP rank (\d+)(?:, ETP rank \d+)?(?:, EP rank (\d+))?`, func(c *ctx, m [][]byte) {
			p := c.p
			setRank(&p.grank, string(m[1]))
			setRank(&p.world, string(m[2]))
			setRank(&p.dp, string(m[3]))
			setRank(&p.pp, string(m[4]))
			setRank(&p.tp, string(m[5]))
			setRank(&p.ep, string(m[6]))
			c.phase(phDistributed)
		}),
		// 0.5+: "world_size=16 rank=0 local_rank=0 distributed_init_method=tcp://10.41.0.7:34773 backend=nccl".
		r(one("distributed_init_method="), `world_size=(\d+) rank=(\d+) local_rank=\d+ distributed_init_method=(\S+)`, func(c *ctx, m [][]byte) {
			setRank(&c.p.world, string(m[1]))
			if c.p.grank < 0 {
				setRank(&c.p.grank, string(m[2]))
			}
			c.str(fDistInit, m[3])
			c.phase(phDistributed)
		}),
		// 0.19: "DP group leader: node_rank=0, ..., master_addr=127.0.0.1, mq_connect_ip=10.131.7.85 (local)".
		r(one("DP group leader: "), `master_addr=([^,\s]+), mq_connect_ip=([^\s,]+)`, func(c *ctx, m [][]byte) {
			c.str(fMasterAddr, m[1])
		}),
	}
}

func phaseRules() []rule {
	return []rule{
		phaseRule(phDistributed, "Found nccl from library", "vLLM is using nccl==", "NCCL INFO", "Init START"),
		r(one("Starting to load model "), `Starting to load model (\S+?)\.{0,3}$`, func(c *ctx, m [][]byte) {
			c.str(fModel, m[1])
			c.phase(phLoading)
		}),
		// The V2 model runner (0.2x–0.3x, model_runner.py) logs no "Starting
		// to load model": "Loading model from scratch..." is its first
		// loading line (the GLM-5.3 fixture, vllm#43375).
		// 0.2x's weight_utils.py prefetches the checkpoint into the page
		// cache first ("Prefetching checkpoint files: 80% (9/11)",
		// vllm-project/vllm-ascend#12891 on 0.23.0rc1).
		phaseRule(phLoading, "Loading safetensors checkpoint shards", "Using model weights format", "Loading model from scratch",
			"Prefetching checkpoint files"),
		phaseRule(phProfiling, "torch.compile take", "Dynamo bytecode transform", "Memory profiling takes",
			"Initial profiling/warmup", "Profiling CUDA graph memory", "Starting profile run"),
		waitRule(phRayPlacement, "Waiting for creating a placement group"),
		// The API server waits for its engines ("Waiting for 1 local, 0
		// remote core engine proc(s) to start", or "to connect", every ten
		// seconds); an engine core's own "Waiting for init message from
		// front-end" is its first line. The V0 front-end polls its engine
		// process with "Waiting for output from MQLLMEngine".
		waitRule(phHandshake, "core engine proc(s) to start", "core engine proc(s) to connect"),
		// The front-end starts its DP coordinator before its engines
		// (vllm#31884, llm-d-modelservice#7): from there it is the handshake.
		phaseRule(phHandshake, "Started DP Coordinator process"),
		waitRule(phStart, "Waiting for init message from front-end"),
		waitRule(phNone, "Waiting for output from MQLLMEngine"),
		// vLLM's shared-memory message queue (shm_broadcast.py), every 60 s
		// a reader or writer waits on its peers: "No available shared
		// memory broadcast block found in 60 seconds. This typically
		// happens when some processes are hanging or doing some
		// time-consuming work" (vllm#32116 during DeepGEMM's warm-up,
		// vllm#32105, vllm#54794 during FlashInfer's autotuning). A log
		// that ends on it ends waiting.
		waitRule(phNone, "No available shared memory broadcast block found"),
		// A traceback's first line: a log cut before its exception still
		// shows a failure (LOG001), never an excerpt's end (LOG002).
		r(one("Traceback (most recent call last)"), "", func(c *ctx, _ [][]byte) {
			c.p.tracebacks++
			c.p.graphFrames = false
			c.p.nixlFrames, c.p.tpRatioFrame = false, false
			c.p.dgFrames = 0
			c.p.framePh = phNone
			c.p.frame, c.p.frameCode, c.p.frameWant = "", "", false
		}),
		// A traceback frame when the excerpt starts after "Traceback (most
		// recent call last)": logged at ERROR (logger.exception's lines, as
		// multiproc_executor.py and core.py print them, vllm#55914) or
		// without a level (Python's own traceback on stderr, vllm#43410):
		// the traceback began all the same. A frame at INFO or WARNING is
		// not one (a stack a message quotes).
		r(one(`File "`), `^File ".*", line \d+, in \S+`, func(c *ctx, _ [][]byte) {
			if (c.l.level == 'E' || c.l.level == 'C' || c.l.level == 0) && c.p.tracebacks == 0 {
				c.p.tracebacks++
			}
		}),
		phaseRule(phCUDAGraphs, "Capturing cudagraphs", "Capturing the model for CUDA graphs", "Capturing CUDA graph"),
		// The front-end logs "Supported tasks: ['generate']" once its
		// engine client is up, from what the engines answer
		// (vllm/entrypoints/openai/api_server.py: init_app_state, later
		// build_and_serve, after engine_client.get_supported_tasks(); the
		// LLM class the same in llm.py): the engines are initialised. An
		// excerpt of API-server lines (vllm#45150: four ApiServer_N
		// processes) was "no start-up lines" before.
		phaseRule(phEngineReady, "Supported tasks: "),
		// "took 35.84 seconds" (0.10–0.19), "took 29.10 s" (0.31).
		r(one("init engine (profile, create kv cache, warmup model) took "), `took ([\d.]+) s(?:econds)?\b`, func(c *ctx, m [][]byte) {
			c.num(fInitSec, m[1])
			c.phase(phEngineReady)
		}),
		r([]string{"Uvicorn running on", "Application startup complete", "Starting vLLM API server",
			"Starting vLLM server on", "Avg prompt throughput"}, "", func(c *ctx, _ [][]byte) {
			c.phase(phServing)
			c.sawRuntime("the server was up (\"" + clip(string(c.l.msg), 60) + "\")")
			c.r.serving = true
			if n := c.l.no; n > c.a.servedAt[c.p.file] {
				c.a.servedAt[c.p.file] = n
			}
		}),
	}
}

// profileRules read two lines that change what vLLM's memory profile
// measures (docs/calibration-memory.md):
//
//   - "FlashInfer is not available. Falling back to the PyTorch-native
//     implementation of top-p & top-k sampling." (V1 0.7–0.11 in the
//     fixtures and published logs, printed by
//     each worker from vllm/v1/sample/ops/topk_topp_sampler.py; 0.7.2's and 0.11.0's
//     goes on " For the best performance, please install FlashInfer."): FlashInfer
//     is not installed, so the profile's sampler sorts
//     (vllm.Release.ProfileSampler), a larger activation peak on releases
//     whose default would sample with FlashInfer;
//   - "Encoder cache will be initialized with a budget of 153600 tokens,
//     and profiled with 1 video items of the maximum feature size." (0.11.0,
//     vllm/v1/worker/gpu_model_runner.py profile_run): the multimodal
//     encoder's profile (vllm.Release.EncoderProfilePlaceholders).
//
// Both are quoted by published/vllm-memory-logs.yaml
// (qwen3vl-30b-a3b-sipeed-rtx3090-tp4, qwen3next-80b-instruct-h200-tp2-v0102).
func profileRules() []rule {
	return []rule{
		r(one("FlashInfer is not available"), `^FlashInfer is not available\. Falling back to the PyTorch-native implementation of top-p & top-k sampling`, func(c *ctx, _ [][]byte) {
			c.str(fFlashInfer, []byte(FlashInferNotInstalled))
		}),
		r(one("Encoder cache will be initialized with a budget of "), `Encoder cache will be initialized with a budget of (\d+) tokens, and profiled with (\d+) (\w+) items? of the maximum feature size`, func(c *ctx, m [][]byte) {
			c.num(fEncoderBudget, m[1])
			c.num(fEncoderItems, m[2])
			c.str(fEncoderModality, m[3])
		}),
	}
}

// FlashInferNotInstalled is Engine.FlashInfer when a worker logged that
// FlashInfer is not available.
const FlashInferNotInstalled = "not installed"

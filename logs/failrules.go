package logs

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// failureRules recognise the failures of issue 14. Patterns are written
// from the messages in the fixtures (testdata/real) and vLLM's source.
func failureRules() []rule {
	var rs []rule
	rs = append(rs, memoryFailureRules()...)
	rs = append(rs, networkFailureRules()...)
	rs = append(rs, dpRayFailureRules()...)
	rs = append(rs, argFailureRules()...)
	rs = append(rs, configFailureRules()...)
	rs = append(rs, processFailureRules()...)
	rs = append(rs, dpBindRules()...)
	rs = append(rs, pdFailureRules()...)
	rs = append(rs, deepGEMMRules()...)
	rs = append(rs, hubProbeRules()...)
	rs = append(rs, ascendDeviceRules()...)
	rs = append(rs, mlaReshapeRules()...)
	rs = append(rs, genericFailureRules()...)
	return rs
}

// wrappedNeed is the KV a V1 max-len message needs when the line ends
// there ("…, 9.29 GiB KV cache is needed,"): the rest was wrapped.
var wrappedNeed = regexp.MustCompile(`\(?([\d.]+) GiB KV cache is needed,?\s*$`)

var oomDetail = regexp.MustCompile(`Tried to allocate ([\d.]+ [KMG]iB)\.? ?GPU ?(\d+)? has a total capacity of ([\d.]+ [KMG]iB) of which ([\d.]+ [KMG]iB) is free`)

func memoryFailureRules() []rule {
	// "CUDA driver error: out of memory" is the driver API's form (torch's
	// C10_CUDA_DRIVER_CHECK, cuGetErrorString of CUDA_ERROR_OUT_OF_MEMORY),
	// as vLLM's Marlin repack raises it while processing the weights
	// (noonghunna/club-3090#60).
	oom := r([]string{"CUDA out of memory", "OutOfMemoryError", "CUDA error: out of memory", "HIP out of memory", "CUDA driver error: out of memory"}, "", func(c *ctx, _ [][]byte) {
		msg := "CUDA out of memory"
		if m := oomDetail.FindSubmatch(c.l.msg); m != nil {
			msg = fmt.Sprintf("CUDA out of memory: tried to allocate %s with %s of %s free", m[1], m[4], m[3])
		}
		switch ph := c.effectivePhase(); {
		case ph == phCUDAGraphs:
			c.fail(CodeCUDAGraph, msg+" while capturing CUDA graphs", "")
		case c.p.graphFrames:
			// The progress line is often missing (a progress bar on
			// stderr, an excerpt): the traceback says where it was.
			c.fail(CodeCUDAGraph, msg+" while capturing CUDA graphs (the traceback runs through the capture)", "")
		case ph >= phEngineReady:
			c.fail(CodeOOMRuntime, msg+" after start-up ("+phaseDoing[ph]+")", "")
		case c.p.dgFrames&dgWarmup != 0:
			// vllm#29360: the warm-up's traceback, with no phase line
			// after the KV cache's.
			c.fail(CodeOOMLoading, msg+" during the kernel warm-up (kernel_warmup → deep_gemm_warmup), after the KV cache was sized", dgWarmupOOMFix)
		default:
			// settle decides, once the whole log is read, whether a line
			// only a running server logs makes it a runtime one.
			// The text says start-up as the kind does (oom_loading), with
			// the phase when one is known ("during start-up (phase
			// loading-weights)"; it read "during starting" for phStart).
			when := " during start-up"
			if ph > phNone {
				when += " (phase " + ph.String() + ")"
			}
			if f := c.fail(CodeOOMLoading, msg+when, ""); f != nil && f.oom == nil {
				f.oom = &oomNote{msg: msg, ph: ph}
			}
		}
	})
	free := r(one("is less than desired GPU memory utilization"), `\(([\d.]+)/([\d.]+) GiB\) on startup is less than desired GPU memory utilization \(([\d.]+), ([\d.]+) GiB\)`, func(c *ctx, m [][]byte) {
		c.num(fGPUTotalGiB, m[2])
		c.num(fUtil, m[3])
		c.fail(CodeFreeMemory, fmt.Sprintf("only %s of %s GiB free at start-up; gpu_memory_utilization %s asks for %s GiB", m[1], m[2], m[3], m[4]), "")
	})
	noKV := r(one("No available memory for the cache blocks"), "", func(c *ctx, _ [][]byte) {
		c.fail(CodeNoKVMemory, "no memory left for the KV cache (No available memory for the cache blocks)", "")
	})
	negKV := r(one("Available KV cache memory: -"), `Available KV cache memory: (-[\d.]+) ?GiB`, func(c *ctx, m [][]byte) {
		c.fail(CodeNoKVMemory, fmt.Sprintf("the KV cache budget is negative (%s GiB): weights and profiling already exceed gpu_memory_utilization", m[1]), "")
	})
	v0Len := r(one("is larger than the maximum number of tokens that can be stored in KV cache"), `max seq len \((\d+)\) is larger than the maximum number of tokens that can be stored in KV cache \((\d+)\)`, func(c *ctx, m [][]byte) {
		c.fail(CodeMaxLenTooLong, fmt.Sprintf("max_model_len %s is larger than the KV cache (%s tokens)", m[1], m[2]),
			fmt.Sprintf("The KV cache holds %s tokens: --max-model-len %s or less fits.", m[2], m[2]))
	})
	// V1: "To serve at least one request with the models's max seq len (X), (Y GiB KV cache is
	// needed, which is larger than the available KV cache memory (Z GiB). Based on the available
	// memory, the estimated maximum model length is N." Pasted logs often wrap it over lines.
	v1Len := r(one("KV cache is needed, which is larger than the available KV cache memory"), `(?:max seq len \((\d+)\), )?\(?([\d.]+) GiB KV cache is needed, which is larger than the available KV cache memory \(([\d.]+) GiB\)`, func(c *ctx, m [][]byte) {
		need := "max_model_len"
		if len(m[1]) > 0 {
			need += " " + string(m[1])
		} else if v := c.p.facts[fMaxModelLen]; v.set {
			need += fmt.Sprintf(" %.0f", v.num)
		}
		// The available figure is the KV memory vLLM sized (qa44a F12: the
		// per-GPU line said "KV ?" next to this message's 4.0 GiB).
		c.num(fAvailableKVGiB, m[3])
		c.fail(CodeMaxLenTooLong, fmt.Sprintf("%s needs %s GiB of KV cache; %s GiB is available", need, m[2], m[3]), "")
	})
	serve := r(one("To serve at least one request with the model"), `max seq len \((\d+)\)`, func(c *ctx, m [][]byte) {
		c.num(fMaxModelLen, m[1])
		if n := wrappedNeed.FindSubmatch(c.l.msg); n != nil {
			c.p.kvNeed = string(n[1])
		}
		c.fail(CodeMaxLenTooLong, fmt.Sprintf("one sequence of max_model_len %s does not fit the KV cache", m[1]), "")
	})
	// The same message wrapped after "… KV cache is needed,": the next
	// line begins "which is larger than the available KV cache memory
	// (9.28 GiB)" (vllm#46778).
	wrapped := r(one("which is larger than the available KV cache memory ("), `^which is larger than the available KV cache memory \(([\d.]+) GiB\)`, func(c *ctx, m [][]byte) {
		if c.p.kvNeed == "" {
			return
		}
		need := "max_model_len"
		if v := c.p.facts[fMaxModelLen]; v.set {
			need += fmt.Sprintf(" %.0f", v.num)
		}
		c.num(fAvailableKVGiB, m[1])
		c.fail(CodeMaxLenTooLong, fmt.Sprintf("%s needs %s GiB of KV cache; %s GiB is available", need, c.p.kvNeed, m[1]), "")
		c.p.kvNeed = ""
	})
	// Without "the ": a pasted message wrapped before "estimated" (vllm#46778).
	estimate := r(one("estimated maximum model length is "), `estimated maximum model length is (\d+)`, func(c *ctx, m [][]byte) {
		c.fail(CodeMaxLenTooLong, "", fmt.Sprintf("vLLM estimates that --max-model-len %s fits.", m[1]))
	})
	graph := r([]string{"operation not permitted when stream is capturing", "cudaErrorStreamCapture"}, "", func(c *ctx, _ [][]byte) {
		c.fail(CodeCUDAGraph, "", "")
	})
	// Any other CUDA error while the graphs are captured: "Capturing CUDA
	// graphs (mixed prefill-decode, PIECEWISE):  88%|…| 45/51 […]CUDA
	// error: device kernel image is invalid" (vllm-project/recipes#551,
	// 0.17–0.19 on Qwen3.6-27B-FP8). Out of memory is the rule above's.
	graphErr := r(one("CUDA error: "), `CUDA error: ([^\r\n]+)`, func(c *ctx, m [][]byte) {
		if c.l.indent || bytes.Contains(m[1], []byte("out of memory")) {
			return
		}
		if c.effectivePhase() != phCUDAGraphs && !c.p.graphFrames {
			return
		}
		extra := ""
		if bytes.Contains(m[1], []byte("kernel image")) {
			extra = "A kernel image that is invalid or missing means the installed kernels were not built for this GPU (another CUDA architecture or toolkit): use a wheel or image built for it."
		}
		c.fail(CodeCUDAGraph, "CUDA error while capturing CUDA graphs: "+clip(strings.TrimSpace(string(m[1])), 160), extra)
	})
	// vLLM's check before the capture of hybrid models (vllm#38270, ≈0.19;
	// the text as vllm#38632 and vllm#49064 show it): "max_num_seqs (1024)
	// exceeds available Mamba cache blocks (600). Each decode sequence
	// requires one Mamba cache block, so CUDA graph capture cannot
	// proceed. Please lower max_num_seqs to at most 600 or increase
	// gpu_memory_utilization." A worker's RuntimeError repeats it
	// ("Worker failed with error '…'"): the same failure.
	mamba := r(one("exceeds available Mamba cache blocks"), `max_num_seqs \((\d+)\) exceeds available Mamba cache blocks \((\d+)\)`, func(c *ctx, m [][]byte) {
		if c.l.indent {
			return
		}
		c.noted = true
		c.fail(CodeMambaBlocks, fmt.Sprintf("max_num_seqs %s exceeds the %s Mamba cache blocks (one per decode sequence)", m[1], m[2]),
			fmt.Sprintf("--max-num-seqs %s or less fits.", m[2]))
	})
	return []rule{graphFrames(), oom, free, noKV, negKV, v0Len, serve, wrapped, v1Len, estimate, graph, graphErr, mamba}
}

// graphFrame is a traceback frame or source line of vLLM's CUDA-graph
// capture: V1's GPUModelRunner.capture_model, _capture_cudagraphs and
// _warmup_and_capture (0.8 to 0.2x), V0's ModelRunner.capture_model and
// CUDAGraphRunner.capture, and torch's capture itself (torch.cuda.graph(),
// CUDAGraph.capture_end) as vllm#19186 shows it.
var graphFrame = regexp.MustCompile(`(?:^File ".*", line \d+, in (?:capture_model|_capture_cudagraphs|_warmup_and_capture|capture|capture_end|capture_begin)$)|torch\.cuda\.graph\(|\.capture_model\(`)

// graphFrames notes that the process's current traceback runs through the
// capture (proc.graphFrames), so that its out-of-memory is the capture's
// even when no "Capturing CUDA graphs" line was logged.
func graphFrames() rule {
	return r([]string{", in capture", ", in _capture_cudagraphs", ", in _warmup_and_capture", "torch.cuda.graph(", ".capture_model("}, "", func(c *ctx, _ [][]byte) {
		if (c.l.indent || hasPrefix(c.l.msg, `File "`)) && graphFrame.Match(bytes.TrimSpace(c.l.msg)) {
			c.p.graphFrames = true
		}
	})
}

var deepEPFailure = regexp.MustCompile(`(?i)fail|error|non-zero status|called before|cannot|unable|not found|assert`)

func networkFailureRules() []rule {
	nccl := r([]string{"NCCL error", "NCCL Error", "ncclInternalError", "ncclSystemError", "ncclUnhandledCudaError",
		"ncclInvalidUsage", "ncclRemoteError", "DistBackendError", "Watchdog caught collective operation timeout"}, "", func(c *ctx, _ [][]byte) {
		c.fail(CodeNCCL, "", "")
	})
	ncclWarn := r(one("NCCL WARN "), "", func(c *ctx, _ [][]byte) { c.failSev(CodeNCCL, "warning", "", "") })
	// torch_npu's ProcessGroupHCCL (HCCL is Ascend's NCCL) stops its
	// watchdog on a failed collective and aborts the process
	// (vllm-project/vllm-ascend#16111: "[rank7]:[E907 12:48:03…
	// ProcessGroupHCCL.cpp:2011] [Rank 3] HCCL watchdog thread terminated
	// with exception:", then "terminate called after throwing …" and
	// "what():  [Rank 3] HCCL watchdog …" from the C++ runtime).
	hccl := r(one("HCCL watchdog thread terminated with exception"), "", func(c *ctx, _ [][]byte) {
		c.fail(CodeNCCL, "HCCL's watchdog stopped on a failed collective and aborted the process",
			"On Ascend the collective library is HCCL: the error code on the next line ([ERROR] … ERRnnnnn) names the failure; check HCCL_IF_IP/HCCL_SOCKET_IFNAME, HCCL_CONNECT_TIMEOUT and HCCL_EXEC_TIMEOUT.")
	})
	iface := r([]string{"Unable to find address for", "Unable to find interface for"}, `Unable to find (address|interface) for:? ?(\S+)`, func(c *ctx, m [][]byte) {
		c.fail(CodeGlooInterface, fmt.Sprintf("Gloo cannot find the %s %s on this node", m[1], strings.TrimSuffix(string(m[2]), ".")), "")
	})
	mesh := r(one("connectFullMesh failed"), "", func(c *ctx, _ [][]byte) { c.fail(CodeGlooConnect, "", "") })
	loop := r(one("Using the loopback address as fallback"), "", func(c *ctx, _ [][]byte) {
		c.fail(CodeGlooLoopback, "Gloo could not resolve this host's address and bound to the loopback (127.0.0.1)", "")
	})
	deepep := r([]string{"nvshmem", "NVSHMEM", "deep_ep.cpp", "DeepEP", "IBGDA", "ibgda"}, "", func(c *ctx, _ [][]byte) {
		if deepEPFailure.Match(c.l.msg) && !hasPrefix(c.l.msg, "NVSHMEM_") {
			c.fail(CodeDeepEP, "", "")
		}
	})
	return []rule{nccl, ncclWarn, hccl, iface, mesh, loop, deepep}
}

func dpRayFailureRules() []rule {
	timeout := r([]string{"Timed out waiting for engines", "Did not receive response from front-end"}, "", func(c *ctx, _ [][]byte) {
		c.fail(CodeDPTimeout, "", "")
	})
	mismatch := r([]string{"Configuration mismatch detected", "DP adjusted local rank", "must be <= data_parallel_size",
		"Error setting CUDA_VISIBLE_DEVICES"}, "", func(c *ctx, _ [][]byte) {
		c.fail(CodeDPConfig, "", "")
	})
	ray := r([]string{"Current node has no GPU available", "Ray does not allocate any GPUs on the driver node",
		"No available node types can fulfill resource request", "exceeds the total number of available GPUs in the placement group"}, "", func(c *ctx, _ [][]byte) {
		if c.l.level == 'W' || c.l.level == 'I' {
			c.waits = true
			c.fail(CodeRayWaiting, "", "")
			return
		}
		c.fail(CodeRayNoGPU, "", "")
	})
	wait := r([]string{"Waiting for creating a placement group of specs", "exceeds available GPUs"}, "", func(c *ctx, _ [][]byte) {
		c.waits = true
		c.fail(CodeRayWaiting, "", "")
	})
	return []rule{timeout, mismatch, ray, wait}
}

func argFailureRules() []rule {
	unknown := r([]string{"unrecognized arguments: ", "error: argument ", "ambiguous option: ", "got an unexpected keyword argument"}, "", func(c *ctx, _ [][]byte) {
		msg, extra := flagFailure(c)
		c.fail(CodeUnknownFlag, msg, extra)
	})
	deprecated := r([]string{"is deprecated and will be removed", "environment variable is deprecated"}, "", func(c *ctx, _ [][]byte) {
		if len(c.l.src) > 0 {
			c.fail(CodeDeprecated, "", "")
		}
	})
	return []rule{unknown, deprecated}
}

// exceptionLine is a Python exception as a traceback ends: "ValueError: ...".
// Ray re-raises a remote task's exception as a class named after its cause
// (python/ray/exceptions.py RayTaskError.as_instanceof_cause:
// "ray.exceptions.RayTaskError(AcceleratorError): ray::RayWorkerWrapper.__ray_call__() (pid=514820, ip=…)",
// LMCache/LMCache#2236), which ends the engine core's traceback as well.
var exceptionLine = regexp.MustCompile(`^(?:\[rank\d+\]: ?)?([A-Za-z_][\w.]*(?:Error|Exception|Exit)|(?:[A-Za-z_][\w.]*\.)?RayTaskError\([A-Za-z_]\w*\))(?:: ?(.*))?$`)

// wrapperMessages say that a start-up failed without saying why; the cause
// is another process's exception.
var wrapperMessages = []string{"Engine core initialization failed", "WorkerProc initialization failed",
	"EngineCore failed to start", "WorkerProc failed to start", "Error executing method",
	"EngineCore hit an exception", "Got fatal signal from worker processes", "EngineCore encountered a fatal error",
	// vllm/v1/engine/exceptions.py EngineDeadError, as the API server
	// logs it (noonghunna/club-3090#58): the engine's own traceback is the cause.
	"EngineCore encountered an issue. See stack trace",
	// vllm/v1/executor/multiproc_executor.py worker_busy_loop:
	// logger.exception("WorkerProc hit an exception."), the worker's own
	// traceback and exception follow (vllm#39788).
	"WorkerProc hit an exception"}

func genericFailureRules() []rule {
	exc := r([]string{"Error", "Exception", "Exit"}, "", func(c *ctx, _ [][]byte) {
		if c.l.indent {
			return
		}
		m := exceptionLine.FindSubmatch(c.l.msg)
		if m == nil {
			return
		}
		c.noted = true
		if isWrapper(c.l.msg) {
			c.p.noteWrapper(c.l)
			return
		}
		c.p.noteException(c.l)
	})
	wrap := r(wrapperMessages, "", func(c *ctx, _ [][]byte) {
		if !c.l.indent {
			c.noted = true
			c.p.noteWrapper(c.l)
		}
	})
	// ROCm's runtime (ROCR, src/core/runtime/runtime.cpp, the default
	// memory-fault handler) prints "Memory access fault by GPU node-3
	// (Agent handle: 0x13e852f0) on address 0x77d445e00000. Reason:
	// Unknown." and calls std::abort(): the process dies with no Python
	// exception (vllm#43605, MI355X with AITER).
	rocmFault := r(one("Memory access fault by GPU node-"), "", func(c *ctx, _ [][]byte) {
		if c.l.indent {
			return
		}
		f := c.fail(CodeOther, "a GPU kernel faulted on a memory access and ROCm's runtime aborted the process (no Python traceback follows)", "")
		if f == nil {
			return
		}
		f.fix = "The kernel that faulted is the one running at that moment: the lines just before name the phase (weight loading, MoE or attention warm-up, CUDA-graph capture, a request). With AITER on, switch off the AITER kernel of that phase (VLLM_ROCM_USE_AITER_MOE=0, VLLM_ROCM_USE_AITER_MHA=0, … or VLLM_ROCM_USE_AITER=0) to confirm it; run with --enforce-eager to rule out graph capture."
	})
	return []rule{exc, wrap, rocmFault}
}

func isWrapper(msg []byte) bool {
	for _, w := range wrapperMessages {
		if strings.Contains(string(msg), w) {
			return true
		}
	}
	return false
}

func hasPrefix(b []byte, s string) bool { return strings.HasPrefix(string(b), s) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

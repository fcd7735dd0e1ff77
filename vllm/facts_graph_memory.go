package vllm

import (
	"strconv"
	"strings"
)

// srcGraphMemory: vLLM's CUDA-graph memory profiling. PR #30515 (opened
// 2025-12-11) added an estimate of the CUDA graphs' memory, captured with a
// small dummy KV cache during profiling and subtracted from the KV-cache
// budget, off by default ("may be enabled with
// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1"). vllm/envs.py on main (the
// context of PR #41099's diff, 2026-04-28) reads the variable with default
// "1", commented "Enabled by default as of v0.21.0"; a 0.27.1 start-up log
// (gpustack/runner PR #251, 2026-08-14) prints gpu_worker.py's "CUDA graph
// memory profiling is enabled (default since v0.21.0) ... To disable, set
// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0" next to "Estimated CUDA graph
// memory: 0.36 GiB total" and the reduced "Available KV cache memory". PR
// #45197 (2026-06-10) proposed turning it off by default and was closed
// unmerged; PR #49233 (2026-07-20) and issue #50780 (0.26.0) still describe
// it as on by default. Caveat from PR #49233: Model Runner V2, the default
// for dense models from 0.25.1, returned 0 from profile_cudagraph_memory, so
// no graph memory was subtracted there (that PR was closed; whether and when
// V2 began to estimate is not pinned). PR #38284 ("[Startup][UX] Enable
// CUDAGraph memory profiling by default", opened 2026-03-26, "slated for
// default enablement in v0.21", still open on 2026-04-07) flipped the
// default, and it reached 0.20.0, not 0.21.0 as the log line says: a vLLM
// 0.20.0 start-up log (banner "version 0.20.0", "Initializing a V1 LLM
// engine (v0.20.0)", image vllm/vllm-openai:v0.20.0-cu130-ubuntu2404, the
// compose file setting only VLLM_WORKER_MULTIPROC_METHOD,
// PYTORCH_CUDA_ALLOC_CONF and HF_HUB_ENABLE_HF_TRANSFER) prints
// "Estimated CUDA graph memory: 0.39 GiB total" and gpu_worker.py:455's
// "CUDA graph memory profiling is enabled (default since v0.21.0)" next to
// the reduced "Available KV cache memory: 3.07 GiB". 0.19.0's envs.py reads
// the variable with default "0" (vllm/env_table.go). The release tags settle
// it (srcGraphMemTags): PR #38284 merged 2026-04-21 as 96a85c575, after
// v0.19.1 (2026-04-17) and before v0.20.0 (2026-04-27), and it flipped both
// the variable's default ("0" to "1") and CacheConfig's
// gpu_memory_utilization (0.9 to 0.92) in the same commit.
const srcGraphMemory = "PR #30515 (opened 2025-12-11: CUDA-graph memory estimate subtracted from the KV budget, opt-in with VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1); " +
	"vllm/envs.py (main, in PR #41099's diff context, 2026-04-28: default \"1\", \"Enabled by default as of v0.21.0\"); " +
	"gpustack/runner PR #251 (a vLLM 0.27.1 log, gpu_worker.py: \"CUDA graph memory profiling is enabled (default since v0.21.0)\", \"Estimated CUDA graph memory: 0.36 GiB total\"); " +
	"PR #45197 (2026-06-10, closed unmerged: would have disabled it by default); PR #49233 (2026-07-20: \"default on\"; Model Runner V2, default for dense models from 0.25.1, " +
	"estimated 0); issue #50780 (0.26.0: hybrid GDN models overcharged); default-on after 0.27.1 not seen changed, 0.28-0.31 unverified; " +
	"PR #38284 (enables it by default; opened 2026-03-26 for v0.21); a vLLM 0.20.0 start-up log (image vllm/vllm-openai:v0.20.0-cu130-ubuntu2404, variable unset: " +
	"gpu_worker.py:455 \"CUDA graph memory profiling is enabled (default since v0.21.0)\", \"Estimated CUDA graph memory: 0.39 GiB total\"): on by default from 0.20.0, its text notwithstanding; " + srcGraphMemTags

// srcGraphMemTags: vllm/envs.py and vllm/config/cache.py read at vLLM's
// release tags in the fork snapshot github.com/kzwrime/vllm (upstream's
// tags v0.1.0-v0.24.0; its v0.19.0 tag is 2a69949bd, the commit
// sources_factaudit2.go pins independently).
const srcGraphMemTags = "vllm/envs.py VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS and vllm/config/cache.py CacheConfig.gpu_memory_utilization at vLLM's release tags " +
	"(fork snapshot github.com/kzwrime/vllm carrying upstream tags): absent at v0.17.0 b31e9326a and v0.17.1 95c0f928c; default \"0\" and 0.9 at v0.18.0 bcf2be961, " +
	"v0.18.1 a26e8dc7f, v0.19.0 2a69949bd, v0.19.1 b1388b1fb; default \"1\" and 0.92 at v0.20.0 88d34c640, v0.20.1 132765e35, v0.20.2 bc150f502, v0.21.0 ad7125a43, " +
	"v0.22.0 0b3ba88f1, v0.22.1 0decac0d9, v0.23.0 0fc695fc6, v0.24.0 ee0da84ab; PR #30515 merged 2026-03-07 as ebb9cc5f2 (in v0.18.0, not in v0.17.1); " +
	"PR #38284 merged 2026-04-21 as 96a85c575 (in v0.20.0, not in v0.19.1), changing both defaults"

// GraphMemoryVariable switches vLLM's CUDA-graph memory profiling.
const GraphMemoryVariable = "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS"

// graphMemoryDefaultOn: releases where profiling is on when the variable is
// unset. vLLM's log line says "default since v0.21.0", but the v0.20.0 tag's
// envs.py defaults it to "1" and v0.19.1's to "0" (srcGraphMemTags), as a
// 0.20.0 release log with the variable unset shows (srcGraphMemory).
var graphMemoryDefaultOn = Span{Since: v0200}

// GraphMemoryProfiling is whether a release subtracts its estimate of
// CUDA-graph memory from the KV-cache pool (measured during profiling, not
// only captured after the KV cache is allocated).
type GraphMemoryProfiling struct {
	// DefaultOn is Present where profiling is on unless
	// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 (0.20.0 and later), Absent
	// where it is off unless the variable is 1.
	DefaultOn Presence
	// DefaultSince is the first release where it is on by default
	// ("0.20.0"), for messages that say since when.
	DefaultSince string
	// Variable is the environment variable that switches it; VariableIn
	// is whether the release reads it (Absent before PR #30515's release:
	// setting it does nothing there).
	Variable   string
	VariableIn Presence
	// Caveat is what the release fact does not capture: Model Runner V2
	// (dense models from 0.25.1) estimated 0 bytes of graph memory.
	Caveat string
	Source string
}

// GraphMemoryProfiling returns the release's CUDA-graph memory profiling
// default.
func (r Release) GraphMemoryProfiling() GraphMemoryProfiling {
	g := GraphMemoryProfiling{DefaultOn: graphMemoryDefaultOn.In(r.Version), DefaultSince: graphMemoryDefaultOn.Since.String(), Variable: GraphMemoryVariable,
		Caveat: "Model Runner V2 (the default for dense models from 0.25.1) estimated no graph memory (PR #49233)", Source: srcGraphMemory}
	if e, ok := KnownEnvEver(GraphMemoryVariable); ok {
		g.VariableIn = e.In(r.Version)
	}
	return g
}

// Subtracts reports whether vLLM subtracts the CUDA-graph estimate from the
// KV pool given the variable's value (set false: the variable is unset).
// vLLM reads it as bool(int(value)): "0" turns it off, any other integer
// on. A release that does not read the variable ignores it; a value that is
// not an integer (vLLM fails on it) counts as unset.
func (g GraphMemoryProfiling) Subtracts(value string, set bool) bool {
	if set && g.VariableIn != Absent {
		if n, err := strconv.Atoi(strings.TrimSpace(value)); err == nil {
			return n != 0
		}
	}
	return g.DefaultOn == Present
}

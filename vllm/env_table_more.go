package vllm

// Sources for the variables below.
const (
	srcNCCLEnv = "NCCL environment variable docs (docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html); integer switches parse as 0/1"
	srcEnvMain = "vllm/envs.py (names seen in several versions; first and last releases unverified, recorded as before the table)"
)

// zeroOne are the values of NCCL's and vLLM's integer on/off switches.
// Anything else is either ignored with a warning (NCCL) or a ValueError
// (vLLM's int(...) parsing).
var zeroOne = []string{"0", "1"}

// moreEnv are variables real launch scripts set. NCCL and Gloo variables
// are valid in every release; vLLM's own follow envs.py.
var moreEnv = []EnvVar{
	{Name: "VLLM_USE_V1", Owner: "vllm", Span: Span{Since: v064, Removed: v0111}, Choices: zeroOne, Default: "0 before 0.8.0, 1 from 0.8.0",
		Doc: "V0/V1 engine switch (see Release.EngineEra); V0 is gone from 0.11.0 and the variable from envs.py soon after (later releases warn \"Unknown vLLM environment variable detected: VLLM_USE_V1\"); drop it",
		Source: srcTagRead("v0.6.3 (absent) and v0.6.4 (present)", "vllm/envs.py") + "; " + srcEngineEra + "; vllm-project/tpu-inference issue #1081 (2025-11-12: vllm.envs has no VLLM_USE_V1); llm-d-incubation/llm-d-fast-model-actuation issue #597 (2026 main warns it is unknown); " +
			"removed in 0.11.1 by PR #28204 (commit e1710393c; vllm/envs.py has 6 hits at v0.11.1rc7, 0 at v0.11.1 and v0.11.2); OpenRLHF PR #1328's \"removed in 0.29\" is contradicted by these"},
	{Name: "VLLM_WORKER_MULTIPROC_METHOD", Owner: "vllm", Span: Span{Since: vPre}, Choices: []string{"fork", "spawn"}, Default: "fork",
		Doc: "how the mp executor starts workers", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_USE_MODELSCOPE", Owner: "vllm", Span: Span{Since: vPre}, Default: "False",
		Doc: "load models from ModelScope; only the string 'true' (any case) enables it, '1' does not", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_CONFIGURE_LOGGING", Owner: "vllm", Span: Span{Since: vPre}, Choices: zeroOne, Default: "1",
		Doc: "0 leaves Python logging to the application", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_LOGGING_CONFIG_PATH", Owner: "vllm", Span: Span{Since: vPre}, Doc: "JSON logging config file", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_RPC_TIMEOUT", Owner: "vllm", Span: Span{Since: mustVersion("0.6.2"), Removed: v0230}, Default: "10000",
		Doc: "milliseconds the frontend waits for an engine RPC reply", Source: srcTagRead("v0.6.1 (absent) and v0.6.2 (present); v0.22.1 (present) and v0.23.0 (absent)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_ENGINE_ITERATION_TIMEOUT_S", Owner: "vllm", Span: Span{Since: vPre}, Default: "60",
		Doc: "seconds one engine step may take before a timeout", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_USE_TRITON_FLASH_ATTN", Owner: "vllm", Span: Span{Since: vPre, Removed: v0111}, Default: "True",
		Doc: "ROCm: Triton flash attention ('true'/'1' enable); a V0 variable, no longer read", Source: srcTagRead("v0.5.3 (present); v0.11.0 (present) and v0.11.1 (absent)", "vllm/envs.py") + "; " + srcEnvMain + "; " + srcFATritonFlashAttn},
	{Name: "VLLM_FLASHINFER_FORCE_TENSOR_CORES", Owner: "vllm", Span: Span{Since: v064, Removed: v0102}, Default: "0",
		Doc: "FlashInfer decode with tensor cores; gone once FlashInfer decode always used them", Source: srcTagRead("v0.6.3 (absent) and v0.6.4 (present); v0.10.1 (present) and v0.10.2 (absent)", "vllm/envs.py") + "; " + srcEnvMain + "; " + srcFAForceTensorCores},
	{Name: "VLLM_MARLIN_USE_ATOMIC_ADD", Owner: "vllm", Span: Span{Since: v080}, Choices: zeroOne, Default: "0",
		Doc: "Marlin kernels reduce with atomic adds", Source: srcTagRead("v0.7.3 (absent) and v0.8.0 (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_CACHE_ROOT", Owner: "vllm", Span: Span{Since: vPre}, Default: "~/.cache/vllm", Doc: "vLLM's cache directory", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_NCCL_SO_PATH", Owner: "vllm", Span: Span{Since: vPre}, Doc: "NCCL library vLLM's pynccl loads", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_DISABLE_COMPILE_CACHE", Owner: "vllm", Span: Span{Since: v065}, Choices: zeroOne, Default: "0",
		Doc: "do not reuse torch.compile artifacts", Source: srcTagRead("v0.6.4 (absent) and v0.6.5 (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_TORCH_PROFILER_DIR", Owner: "vllm", Span: Span{Since: v055, Removed: v0160},
		Doc: "enables the torch profiler endpoints and writes traces here; later releases take the profiler config instead", Source: srcTagRead("v0.5.4 (absent) and v0.5.5 (present)", "vllm/envs.py") + "; " + srcEnvMain + "; " + srcFAProfilerDir},
	{Name: "VLLM_ALLOW_RUNTIME_LORA_UPDATING", Owner: "vllm", Span: Span{Since: v061}, Default: "0",
		Doc: "allow loading/unloading LoRA adapters through the API ('true'/'1')", Source: srcTagRead("v0.6.0 (absent) and v0.6.1 (present)", "vllm/envs.py") + "; " + srcEnvPages + " (0.9.0.1 to 0.16.0); earlier releases not read"},
	{Name: "VLLM_USE_FLASHINFER_SAMPLER", Owner: "vllm", Span: Span{Since: v055}, Choices: zeroOne,
		Doc: "FlashInfer top-p/top-k sampler; unset = used when installed through 0.11.0, opt-in from 0.11.1 (see Release.ProfileSampler)", Source: srcTagRead("v0.5.4 (absent) and v0.5.5 (present)", "vllm/envs.py") + "; " + srcEnvMain},
	{Name: "VLLM_ENABLE_V1_MULTIPROCESSING", Owner: "vllm", Span: Span{Since: v064}, Choices: zeroOne, Default: "1",
		Doc: "engine core in its own process", Source: srcTagRead("v0.6.3 (absent) and v0.6.4 (present)", "vllm/envs.py") + "; " + srcEnvMain},

	{Name: SSMConvLayoutEnv, Owner: "vllm", Span: nixlConvLayoutSpan, Choices: []string{"SD", SSMConvLayoutDS},
		Doc:      "layout of Mamba/GDN conv state in memory: SD (state_len, dim) when unset, DS (dim, state_len); NixlConnector asserts DS for models with state layers (see NixlConvLayoutNeed)",
		Verified: true, Source: srcSSMConvLayout},

	{Name: "VLLM_RPC_PORT", Owner: "vllm", Span: Span{Since: v054, Removed: v055}, Default: "5570",
		Doc:    "0.5.4 only: TCP port of the frontend-engine RPC; two servers on one host need different values (see Release.FrontendRPC)",
		Source: srcRPC + "; the variable's removal with PR #7222 is unverified (0.5.5 ignores it either way: IPC replaced TCP)"},
	{Name: "VLLM_DP_RANK", Owner: "vllm", Span: Span{Since: v080}, Doc: "offline data parallel: this process's DP rank (not for vllm serve)", Source: srcTagRead("v0.7.3 (absent) and v0.8.0 (present)", "vllm/envs.py") + "; " + srcDP080 + "; 0.7.x unverified"},
	{Name: "VLLM_DP_RANK_LOCAL", Owner: "vllm", Span: Span{Since: v083}, Doc: "offline data parallel: DP rank on this node", Source: srcTagRead("v0.8.2 (absent) and v0.8.3 (present)", "vllm/envs.py") + "; " + "docs.vllm.ai/en/v0.9.0/examples/offline_inference/data_parallel; earlier unverified"},
	{Name: "VLLM_DP_SIZE", Owner: "vllm", Span: Span{Since: v080}, Doc: "offline data parallel: DP size", Source: srcTagRead("v0.7.3 (absent) and v0.8.0 (present)", "vllm/envs.py") + "; " + srcDP080 + "; 0.7.x unverified"},
	{Name: "VLLM_DP_MASTER_IP", Owner: "vllm", Span: Span{Since: v080}, Doc: "offline data parallel: rank-0 address", Source: srcTagRead("v0.7.3 (absent) and v0.8.0 (present)", "vllm/envs.py") + "; " + srcDP080 + "; 0.7.x unverified"},
	{Name: "VLLM_DP_MASTER_PORT", Owner: "vllm", Span: Span{Since: v080}, Doc: "offline data parallel: rank-0 port", Source: srcTagRead("v0.7.3 (absent) and v0.8.0 (present)", "vllm/envs.py") + "; " + srcDP080 + "; 0.7.x unverified"},
	{Name: "VLLM_RAY_EXTRA_ENV_VAR_PREFIXES_TO_COPY", Owner: "vllm", Span: Span{Since: v0170},
		Doc: "comma-separated extra prefixes the Ray executor copies to workers (see Release.RayEnvCopy)", Source: srcTagRead("v0.16.0 (absent) and v0.17.0 (present)", "vllm/envs.py") + "; " + srcRayEnv + "; " + srcFARayExtra},
	{Name: "VLLM_RAY_EXTRA_ENV_VARS_TO_COPY", Owner: "vllm", Span: Span{Since: v0170},
		Doc: "comma-separated extra variable names the Ray executor copies to workers", Source: srcTagRead("v0.16.0 (absent) and v0.17.0 (present)", "vllm/envs.py") + "; " + srcRayEnv + "; " + srcFARayExtra},

	{Name: "CUDA_DEVICE_MAX_CONNECTIONS", Owner: "cuda", Doc: "hardware work queues per device (1 is common for Megatron-style overlap)", Source: "CUDA environment variables (CUDA C++ Programming Guide)"},
	{Name: "NCCL_IB_DISABLE", Owner: "nccl", Choices: zeroOne, Doc: "1 disables InfiniBand/RoCE; NCCL falls back to sockets (slow across nodes)", Source: srcNCCLEnv},
	{Name: "NCCL_P2P_DISABLE", Owner: "nccl", Choices: zeroOne, Doc: "1 disables GPU peer-to-peer (NVLink/PCIe) transport", Source: srcNCCLEnv},
	{Name: "NCCL_SHM_DISABLE", Owner: "nccl", Choices: zeroOne, Doc: "1 disables the shared-memory transport", Source: srcNCCLEnv},
	{Name: "NCCL_CUMEM_ENABLE", Owner: "nccl", Choices: zeroOne, Doc: "cuMem-based buffers; vLLM sets 0 itself in some releases", Source: srcNCCLEnv},
	{Name: "NCCL_MNNVL_ENABLE", Owner: "nccl", Choices: []string{"0", "1", "2"}, Doc: "multi-node NVLink: 0 off, 1 on, 2 (default) when the fabric supports it; needs NCCL_CUMEM_ENABLE=1", Source: srcNCCLMNNVL},
	{Name: "NCCL_NVLS_ENABLE", Owner: "nccl", Doc: "NVLink SHARP (NVLS) on NVSwitch systems", Source: srcNCCLEnv},
	{Name: "NCCL_NET_GDR_LEVEL", Owner: "nccl", Doc: "max topology distance for GPUDirect RDMA (LOC, PIX, PXB, PHB, SYS or 0-5)", Source: srcNCCLEnv},
	{Name: "NCCL_P2P_LEVEL", Owner: "nccl", Doc: "max topology distance for P2P (LOC, NVL, PIX, PXB, PHB, SYS or 0-5)", Source: srcNCCLEnv},
	{Name: "NCCL_IB_TIMEOUT", Owner: "nccl", Doc: "InfiniBand Verbs timeout exponent (4.096 µs × 2^value)", Source: srcNCCLEnv},
	{Name: "NCCL_IB_RETRY_CNT", Owner: "nccl", Doc: "InfiniBand retry count", Source: srcNCCLEnv},
	{Name: "NCCL_IB_TC", Owner: "nccl", Doc: "InfiniBand traffic class (RoCE QoS)", Source: srcNCCLEnv},
	{Name: "NCCL_IB_SL", Owner: "nccl", Doc: "InfiniBand service level", Source: srcNCCLEnv},
	{Name: "NCCL_DEBUG_SUBSYS", Owner: "nccl", Doc: "subsystems NCCL_DEBUG logs (INIT, NET, ...)", Source: srcNCCLEnv},
	{Name: "NCCL_ALGO", Owner: "nccl", Doc: "restrict collective algorithms", Source: srcNCCLEnv},
	{Name: "NCCL_PROTO", Owner: "nccl", Doc: "restrict protocols (LL, LL128, Simple)", Source: srcNCCLEnv},
	{Name: "NCCL_BUFFSIZE", Owner: "nccl", Doc: "buffer size per channel in bytes", Source: srcNCCLEnv},
	{Name: "NCCL_IGNORE_CPU_AFFINITY", Owner: "nccl", Choices: zeroOne, Doc: "ignore the job's CPU affinity for NCCL threads", Source: srcNCCLEnv},
}

func init() {
	envTable = append(envTable, moreEnv...)
	setAll2AllEnvChoices()
}

// setAll2AllEnvChoices gives the VLLM_ALL2ALL_BACKEND entries without a
// Literal the backends the backend table records for their span, so the
// variable and the backend table never disagree.
func setAll2AllEnvChoices() {
	for i := range envTable {
		e := &envTable[i]
		if e.Name != "VLLM_ALL2ALL_BACKEND" || len(e.Choices) > 0 {
			continue
		}
		for _, b := range backendTable {
			if spansOverlap(b.Span, e.Span) {
				e.Choices = append(e.Choices, b.Name)
			}
		}
	}
}

// spansOverlap reports whether two spans share a release.
func spansOverlap(a, b Span) bool {
	end := func(s Span) Version {
		if s.Removed.IsZero() {
			return Version{Major: 1 << 20}
		}
		return s.Removed
	}
	return a.Since.Less(end(b)) && b.Since.Less(end(a))
}

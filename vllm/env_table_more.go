package vllm

// Sources for the variables below.
const (
	srcNCCLEnv = "NCCL environment variable docs (docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html); integer switches parse as 0/1"
	srcEnvMain = "vllm/envs.py (names seen in several versions; first and last releases unverified)"
)

// zeroOne are the values of NCCL's and vLLM's integer on/off switches.
// Anything else is either ignored with a warning (NCCL) or a ValueError
// (vLLM's int(...) parsing).
var zeroOne = []string{"0", "1"}

// moreEnv are variables real launch scripts set. NCCL and Gloo variables
// are valid in every release; vLLM's own follow envs.py.
var moreEnv = []EnvVar{
	{Name: "VLLM_USE_V1", Owner: "vllm", Span: Span{Since: v090, Removed: v0120}, Choices: zeroOne, Default: "1",
		Doc:    "V0/V1 engine switch; V0 was removed in 0.11.0 and the variable later (PR #27784 series); drop it",
		Source: "vllm-project/vllm-ascend PR #4086 (Nov 2025: 'removed from vLLM already', main after 0.11.0); PR #27798; 0.12.0 is the safe bound, first release that ignores it unverified"},
	{Name: "VLLM_WORKER_MULTIPROC_METHOD", Owner: "vllm", Span: Span{Since: v090}, Choices: []string{"fork", "spawn"}, Default: "fork",
		Doc: "how the mp executor starts workers", Source: srcEnvMain},
	{Name: "VLLM_USE_MODELSCOPE", Owner: "vllm", Span: Span{Since: v090}, Default: "False",
		Doc: "load models from ModelScope; only the string 'true' (any case) enables it, '1' does not", Source: srcEnvMain},
	{Name: "VLLM_CONFIGURE_LOGGING", Owner: "vllm", Span: Span{Since: v090}, Choices: zeroOne, Default: "1",
		Doc: "0 leaves Python logging to the application", Source: srcEnvMain},
	{Name: "VLLM_LOGGING_CONFIG_PATH", Owner: "vllm", Span: Span{Since: v090}, Doc: "JSON logging config file", Source: srcEnvMain},
	{Name: "VLLM_RPC_TIMEOUT", Owner: "vllm", Span: Span{Since: v090}, Default: "10000",
		Doc: "milliseconds the frontend waits for an engine RPC reply", Source: srcEnvMain},
	{Name: "VLLM_ENGINE_ITERATION_TIMEOUT_S", Owner: "vllm", Span: Span{Since: v090}, Default: "60",
		Doc: "seconds one engine step may take before a timeout", Source: srcEnvMain},
	{Name: "VLLM_USE_TRITON_FLASH_ATTN", Owner: "vllm", Span: Span{Since: v090}, Default: "True",
		Doc: "ROCm: Triton flash attention ('true'/'1' enable); later releases may no longer read it (unverified)", Source: srcEnvMain},
	{Name: "VLLM_FLASHINFER_FORCE_TENSOR_CORES", Owner: "vllm", Span: Span{Since: v090}, Default: "0",
		Doc: "FlashInfer decode with tensor cores; later releases may no longer read it (unverified)", Source: srcEnvMain},
	{Name: "VLLM_MARLIN_USE_ATOMIC_ADD", Owner: "vllm", Span: Span{Since: v090}, Choices: zeroOne, Default: "0",
		Doc: "Marlin kernels reduce with atomic adds", Source: srcEnvMain},
	{Name: "VLLM_CACHE_ROOT", Owner: "vllm", Span: Span{Since: v090}, Default: "~/.cache/vllm", Doc: "vLLM's cache directory", Source: srcEnvMain},
	{Name: "VLLM_NCCL_SO_PATH", Owner: "vllm", Span: Span{Since: v090}, Doc: "NCCL library vLLM's pynccl loads", Source: srcEnvMain},
	{Name: "VLLM_DISABLE_COMPILE_CACHE", Owner: "vllm", Span: Span{Since: v090}, Choices: zeroOne, Default: "0",
		Doc: "do not reuse torch.compile artifacts", Source: srcEnvMain},
	{Name: "VLLM_TORCH_PROFILER_DIR", Owner: "vllm", Span: Span{Since: v090},
		Doc: "enables the torch profiler endpoints and writes traces here (newer releases also have a profiler config; deprecation unverified)", Source: srcEnvMain},
	{Name: "VLLM_ALLOW_RUNTIME_LORA_UPDATING", Owner: "vllm", Span: Span{Since: v090}, Default: "0",
		Doc: "allow loading/unloading LoRA adapters through the API ('true'/'1')", Verified: true, Source: srcEnvPages + " (0.9.0.1 to 0.16.0)"},
	{Name: "VLLM_USE_FLASHINFER_SAMPLER", Owner: "vllm", Span: Span{Since: v090}, Choices: zeroOne,
		Doc: "FlashInfer top-p/top-k sampler (unset = auto)", Source: srcEnvMain},
	{Name: "VLLM_ENABLE_V1_MULTIPROCESSING", Owner: "vllm", Span: Span{Since: v090}, Choices: zeroOne, Default: "1",
		Doc: "engine core in its own process", Source: srcEnvMain},

	{Name: "CUDA_DEVICE_MAX_CONNECTIONS", Owner: "cuda", Doc: "hardware work queues per device (1 is common for Megatron-style overlap)", Source: "CUDA environment variables (CUDA C++ Programming Guide)"},
	{Name: "NCCL_IB_DISABLE", Owner: "nccl", Choices: zeroOne, Doc: "1 disables InfiniBand/RoCE; NCCL falls back to sockets (slow across nodes)", Source: srcNCCLEnv},
	{Name: "NCCL_P2P_DISABLE", Owner: "nccl", Choices: zeroOne, Doc: "1 disables GPU peer-to-peer (NVLink/PCIe) transport", Source: srcNCCLEnv},
	{Name: "NCCL_SHM_DISABLE", Owner: "nccl", Choices: zeroOne, Doc: "1 disables the shared-memory transport", Source: srcNCCLEnv},
	{Name: "NCCL_CUMEM_ENABLE", Owner: "nccl", Choices: zeroOne, Doc: "cuMem-based buffers; vLLM sets 0 itself in some releases", Source: srcNCCLEnv},
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

var v0260 = mustVersion("0.26.0")

func init() { envTable = append(envTable, moreEnv...) }

package vllm

const srcEnvs = "vllm-facts.md §2 (vllm/envs.py, several versions)"

// srcEnvPages are the versioned vllm.envs API pages read (their alphabetical
// start, up to VLLM_A*).
const srcEnvPages = "docs.vllm.ai/en/v{0.9.0.1,0.10.1.1,0.11.0,0.11.1,0.12.0,0.16.0}/api/vllm/envs"

// all2allEnvChoices are the values VLLM_ALL2ALL_BACKEND took while it existed.
var all2allEnvChoices = []string{"naive", "pplx", "deepep_high_throughput", "deepep_low_latency",
	"allgather_reducescatter", "flashinfer_all2allv"}

// envTable lists the variables the generator writes and the linter checks.
var envTable = []EnvVar{
	{Name: "VLLM_ALL2ALL_BACKEND", Owner: "vllm", Span: Span{Since: v090, Removed: v0160}, Deprecated: v0111,
		Choices: all2allEnvChoices, Default: "naive (allgather_reducescatter from 0.10.2)",
		Doc:      "MoE all-to-all backend before --all2all-backend; deprecated by PR #26732 (0.11.1), removed by PR #33535 (Feb 2026, first release assumed 0.16.0)",
		Verified: true, Source: srcEnvs + "; PRs #26732, #30363, #33535; " + srcEnvPages + ": listed in 0.9.0.1-0.12.0, absent from 0.16.0 (first release without it, 0.13-0.16, unverified; 0.16.0 is a verified bound)"},
	{Name: "VLLM_USE_DEEP_GEMM", Owner: "vllm", Span: Span{Since: v090}, Default: "0 (1 from ≈0.11.0, PR #24462)",
		Doc: "DeepGEMM FP8 kernels", Source: srcEnvs},
	{Name: "VLLM_MOE_USE_DEEP_GEMM", Owner: "vllm", Span: Span{Since: v0110}, Default: "1",
		Doc: "MoE-specific DeepGEMM switch; first release unverified", Source: srcEnvs},
	{Name: "VLLM_HOST_IP", Owner: "vllm", Span: Span{Since: v090},
		Doc: "IP this node advertises to the distributed runtime", Verified: true, Source: srcEnvs},
	{Name: "VLLM_PORT", Owner: "vllm", Span: Span{Since: v090},
		Doc: "base port for internal communication; must not look like a URI (Kubernetes service injection)", Source: srcEnvs},
	{Name: "VLLM_MOE_DP_CHUNK_SIZE", Owner: "vllm", Span: Span{Since: v090}, Default: "256",
		Doc: "tokens per MoE DP dispatch chunk", Source: srcEnvs},
	{Name: "VLLM_DEEPEP_BUFFER_SIZE_MB", Owner: "vllm", Span: Span{Since: v0120}, Default: "1024",
		Doc: "DeepEP buffer size; first release unverified", Source: srcEnvs},
	{Name: "VLLM_DBO_COMM_SMS", Owner: "vllm", Span: Span{Since: v0110}, Default: "20", Doc: "SMs reserved for DBO communication", Source: srcEnvs},
	{Name: "VLLM_RANDOMIZE_DP_DUMMY_INPUTS", Owner: "vllm", Span: Span{Since: v090}, Default: "0", Doc: "randomize idle-rank dummy batches", Source: srcEnvs},
	{Name: "VLLM_RAY_DP_PACK_STRATEGY", Owner: "vllm", Span: Span{Since: v0110}, Choices: []string{"strict", "fill", "span"}, Default: "strict",
		Doc: "Ray DP placement; first release unverified", Source: srcEnvs},
	{Name: "VLLM_SKIP_P2P_CHECK", Owner: "vllm", Span: Span{Since: v090}, Doc: "skip the CUDA P2P test", Source: srcEnvs},
	{Name: "VLLM_ALLOW_LONG_MAX_MODEL_LEN", Owner: "vllm", Span: Span{Since: v090}, Default: "0", Doc: "allow max_model_len above the model's", Verified: true, Source: srcEnvs + "; " + srcEnvPages + " (0.9.0.1 to 0.16.0)"},
	{Name: "VLLM_ENGINE_READY_TIMEOUT_S", Owner: "vllm", Span: Span{Since: v0110}, Default: "600",
		Doc: "how long the frontend waits for engines; first release unverified", Source: srcEnvs},
	{Name: "VLLM_ATTENTION_BACKEND", Owner: "vllm", Span: Span{Since: v090, Removed: v0260}, Deprecated: v0140,
		Doc: "force an attention backend; deprecated for --attention-backend / --attention-config.backend, later not read at all",
		Source: srcEnvs + "; listed in " + srcEnvPages + " for 0.9.0.1; deprecation warning seen in 0.14.1 (EuroEval/EuroEval #1488: 'will be removed in v0.14.0 or v1.0.0'); " +
			"absent from the installed 0.26.0 package (issue #50292), first release without it unverified; backend names vary by release, so values are not checked"},
	{Name: "VLLM_LOGGING_LEVEL", Owner: "vllm", Span: Span{Since: v090}, Default: "INFO", Doc: "vLLM log level", Source: srcEnvs},
	{Name: "VLLM_API_KEY", Owner: "vllm", Span: Span{Since: v090}, Secret: true, Doc: "API key the server requires", Verified: true, Source: srcEnvs + "; " + srcEnvPages + " (0.9.0.1 to 0.16.0)"},

	{Name: "GLOO_SOCKET_IFNAME", Owner: "gloo", Doc: "interface for Gloo (CPU groups, DP coordination)", Verified: true, Source: srcEPDocs},
	{Name: "NCCL_SOCKET_IFNAME", Owner: "nccl", Doc: "NCCL bootstrap/socket interface", Source: srcFacts},
	{Name: "NCCL_IB_HCA", Owner: "nccl", Doc: "RDMA HCAs NCCL uses", Source: srcFacts},
	{Name: "NCCL_IB_GID_INDEX", Owner: "nccl", Doc: "RoCE v2 GID index", Source: srcFacts},
	{Name: "NCCL_DEBUG", Owner: "nccl", Doc: "NCCL logging", Source: srcFacts},
	{Name: "NVSHMEM_REMOTE_TRANSPORT", Owner: "nvshmem", Choices: []string{"ibgda", "ibrc", "ucx", "libfabric", "none"},
		Doc: "NVSHMEM remote transport; DeepEP internode needs ibgda", Source: srcFacts},
	{Name: "NVSHMEM_IB_ENABLE_IBGDA", Owner: "nvshmem", Doc: "enable GPU-initiated RDMA", Source: srcFacts},
	{Name: "NVSHMEM_IB_GID_INDEX", Owner: "nvshmem", Doc: "RoCE GID index for NVSHMEM", Source: srcFacts},
	{Name: "NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME", Owner: "nvshmem", Doc: "NVSHMEM bootstrap interface", Source: srcFacts},
	{Name: "NVSHMEM_SYMMETRIC_SIZE", Owner: "nvshmem", Doc: "NVSHMEM symmetric heap size", Source: srcFacts},
	{Name: "NVSHMEM_QP_DEPTH", Owner: "nvshmem", Doc: "NVSHMEM queue-pair depth", Source: srcFacts},
	{Name: "HF_TOKEN", Owner: "huggingface", Secret: true, Doc: "Hugging Face token; read from the environment, never written", Source: srcFacts},
}

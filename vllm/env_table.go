package vllm

const srcEnvs = "vllm-facts.md §2 (vllm/envs.py, several versions)"

// srcAttnEnvGone: when vLLM stopped reading VLLM_ATTENTION_BACKEND. PR
// #32812 removed it from vllm/envs.py (merged 2026-01-22: "As v0.14.0 has
// been out, we can remove these deprecated envs"); PR #33535, merged later
// (2026-02-02), is already reflected in the 0.16.0 envs page (no
// VLLM_ALL2ALL_BACKEND there), so 0.16.0 was cut after both and does not
// read it. 0.15.x may or may not (not read). Issue #23's audit had it still
// read at 0.21 in this table (ignored there).
const srcAttnEnvGone = "PR #32812 (merged 2026-01-22: removes VLLM_ATTENTION_BACKEND from vllm/envs.py once v0.14.0 shipped); " +
	"PR #33535 (merged 2026-02-02) is reflected in docs.vllm.ai/en/v0.16.0/api/vllm/envs, so 0.16.0 contains PR #32812; " +
	"PR #50346 (2026-07-30: \"#32812 (merged 2026-01-22) removed them once v0.14.0 had shipped\"); issue #50292 (0.26.0: nothing in the package reads it); " +
	"flagspans45: vllm/envs.py at the v0.15.0 tag no longer registers it (0.15.0 is the first release without it); its first release, before 0.5.3, not read"

// srcEnvPages are the versioned vllm.envs API pages read (their alphabetical
// start, up to VLLM_A*).
const srcEnvPages = "docs.vllm.ai/en/v{0.9.0.1,0.10.1.1,0.11.0,0.11.1,0.12.0,0.16.0}/api/vllm/envs"

// all2allEnvChoices are the values VLLM_ALL2ALL_BACKEND took from 0.11.0,
// when the variable was typed as a Literal (0.9.x and 0.10.x type it as a
// plain str; their values come from the backend table, see init below).
var all2allEnvChoices = []string{"naive", "pplx", "deepep_high_throughput", "deepep_low_latency",
	"allgather_reducescatter", "flashinfer_all2allv"}

// all2allEnvChoices015 adds mori, which the v0.15.0 and v0.15.1 tags' lists
// have (srcAll2AllEnvTags).
var all2allEnvChoices015 = append(append([]string{}, all2allEnvChoices...), "mori")

// srcAll2AllEnvTags: VLLM_ALL2ALL_BACKEND's env_with_choices list at the tags.
var srcAll2AllEnvTags = srcTagRead("v0.10.2 (os.getenv, no list), v0.11.0-v0.14.1 (env_with_choices: naive, pplx, deepep_high_throughput, "+
	"deepep_low_latency, allgather_reducescatter, flashinfer_all2allv), v0.15.0-v0.15.1 (+ mori) and v0.16.0 (absent)", "vllm/envs.py")

// envTable lists the variables the generator writes and the linter checks.
var envTable = []EnvVar{
	{Name: "VLLM_ALL2ALL_BACKEND", Owner: "vllm", Span: Span{Since: v090, Removed: v0110}, Default: "naive",
		Doc:    "MoE all-to-all backend; allgather_reducescatter does not exist yet (\"Unknown all2all backend\")",
		Source: srcEnv0901 + "; " + srcEnv01011 + "; 0.8.x not read; values from the backend table"},
	{Name: "VLLM_ALL2ALL_BACKEND", Owner: "vllm", Span: Span{Since: v0110, Removed: v0150}, Deprecated: v0111,
		Choices: all2allEnvChoices, Default: "allgather_reducescatter",
		Doc:      "MoE all-to-all backend before --all2all-backend; deprecated by PR #26732 (0.11.1), removed by PR #33535 (Feb 2026)",
		Verified: true, Source: srcAll2AllEnvTags + "; " + srcEnv0110 + "; PRs #26732, #30363, #33535"},
	{Name: "VLLM_ALL2ALL_BACKEND", Owner: "vllm", Span: Span{Since: v0150, Removed: v0160}, Deprecated: v0111,
		Choices: all2allEnvChoices015, Default: "allgather_reducescatter",
		Doc:      "MoE all-to-all backend before --all2all-backend (mori accepted); removed by PR #33535 (Feb 2026)",
		Verified: true, Source: srcAll2AllEnvTags + "; PRs #26732, #33535; absent from docs.vllm.ai/en/v0.16.0/api/vllm/envs"},
	{Name: "VLLM_USE_DEEP_GEMM", Owner: "vllm", Span: Span{Since: v083}, Default: "0 (1 from ≈0.11.0, PR #24462)",
		Doc: "DeepGEMM FP8 kernels", Source: srcTagRead("v0.8.2 (absent) and v0.8.3 (present)", "vllm/envs.py") + "; " + srcEnvs + "; first release unverified (0.8.0 assumed)"},
	{Name: "VLLM_MOE_USE_DEEP_GEMM", Owner: "vllm", Span: Span{Since: v0111}, Default: "1",
		Doc: "MoE-specific DeepGEMM switch", Source: srcTagRead("v0.11.0 (absent) and v0.11.1 (present)", "vllm/envs.py") + "; " + srcEnvs + "; " + srcFAMoEDeepGEMM},
	// VLLM_DEEP_GEMM_WARMUP replaced the boolean VLLM_SKIP_DEEP_GEMM_WARMUP
	// (PR #25619, merged 2025-10-13). 0.10.2's deep_gemm_warmup.py has no
	// warm-up modes, nor has the v0.11.0 tag's envs.py; 0.11.2's reads
	// envs.VLLM_DEEP_GEMM_WARMUP == "relax". 0.11.1 is not read: Since is
	// the first release it may be in, Confirmed the first one a source shows. "skip" is the public
	// workaround when the warm-up fails for want of deep_gemm (vllm#41849,
	// NVIDIA/NeMo-Retriever#2292; logs LOG196).
	{Name: "VLLM_DEEP_GEMM_WARMUP", Owner: "vllm", Span: Span{Since: v0111},
		Choices: []string{"skip", "full", "relax"}, Default: "relax",
		Doc:    "DeepGEMM kernel warm-up after the KV cache is sized: relax (heuristic GEMM shapes), full (every shape) or skip",
		Source: srcTagRead("v0.11.0 (absent) and v0.11.1 (present)", "vllm/envs.py") + "; " + "PR #25619 (vllm/envs.py: env_with_choices(\"VLLM_DEEP_GEMM_WARMUP\", \"relax\", [\"skip\", \"full\", \"relax\"]), replacing VLLM_SKIP_DEEP_GEMM_WARMUP); docs.vllm.ai/en/v0.10.2 and v0.11.2 api/vllm/model_executor/warmup/deep_gemm_warmup (absent, read); 0.11.1 unverified; " + srcFADeepGEMMWarmup},
	{Name: "VLLM_HOST_IP", Owner: "vllm", Span: Span{Since: vPre}, Verified: true,
		Doc: "IP this node advertises to the distributed runtime", Source: srcEnvs + "; in vllm/envs.py at v0.4.2 (first tag with it; absent at v0.4.1), v0.5.0, v0.6.0 and v0.8.5 (qa44b F11)"},
	{Name: "VLLM_PORT", Owner: "vllm", Span: Span{Since: vPre},
		Doc: "base port for internal communication; must not look like a URI (Kubernetes service injection)", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/envs.py") + "; " + srcEnvs + "; first release (before 0.5.3) not read"},
	{Name: "VLLM_MOE_DP_CHUNK_SIZE", Owner: "vllm", Span: Span{Since: v092, Removed: v0200}, Default: "256",
		Doc: "tokens per MoE DP dispatch chunk (the MoE DP chunking itself went with PR #39107)", Source: srcTagRead("v0.9.1 (absent) and v0.9.2 (present)", "vllm/envs.py") + "; " + srcEnvs + "; " + srcFAMoEDPChunk},
	{Name: "VLLM_DEEPEP_BUFFER_SIZE_MB", Owner: "vllm", Span: Span{Since: v0110}, Default: "1024",
		Doc: "DeepEP buffer size", Source: srcEnvs + "; " + srcFADeepEPBuffer},
	{Name: EnvDeepEPLLMNNVL, Owner: "vllm", Span: Span{Since: v0111}, Default: "0",
		Doc: "1: DeepEP low-latency kernels use multi-node NVLink (GB200/GB300 NVL72)", Source: srcPR27328},
	{Name: "VLLM_DEEPEP_HIGH_THROUGHPUT_FORCE_INTRA_NODE", Owner: "vllm", Span: Span{Since: v0111}, Default: "0",
		Doc: "1: DeepEP normal kernels run intranode over multi-node NVLink; needs a DeepEP fork with MNNVL intranode kernels", Source: srcPR27328},
	{Name: "VLLM_DBO_COMM_SMS", Owner: "vllm", Span: Span{Since: v0110}, Default: "20", Doc: "SMs reserved for DBO communication (0.21.0: 64 CUs on ROCm)", Source: srcEnvs + "; " + srcFADeepEPBuffer},
	{Name: "VLLM_RANDOMIZE_DP_DUMMY_INPUTS", Owner: "vllm", Span: Span{Since: v091}, Default: "0", Doc: "randomize idle-rank dummy batches", Source: srcTagRead("v0.9.0 (absent) and v0.9.1 (present)", "vllm/envs.py") + "; " + srcEnvs + "; " + srcFARandomizeDP},
	{Name: "VLLM_RAY_DP_PACK_STRATEGY", Owner: "vllm", Span: Span{Since: v0111}, Choices: []string{"strict", "fill", "span"}, Default: "strict",
		Doc: "Ray DP placement", Source: srcTagRead("v0.11.0 (absent) and v0.11.1 (present)", "vllm/envs.py") + "; " + srcEnvs + "; " + srcFARayPack},
	{Name: "VLLM_SKIP_P2P_CHECK", Owner: "vllm", Span: Span{Since: v063}, Doc: "skip the CUDA P2P test", Source: srcTagRead("v0.6.2 (absent) and v0.6.3 (present)", "vllm/envs.py") + "; kind and default not read at the tags (unverified)" + "; " + srcEnvs},
	{Name: "VLLM_ALLOW_LONG_MAX_MODEL_LEN", Owner: "vllm", Span: Span{Since: v054}, Default: "0", Doc: "allow max_model_len above the model's",
		Source: srcTagRead("v0.5.3 (absent) and v0.5.4 (present)", "vllm/envs.py") + "; " + srcEnvPages + " (0.9.0.1 to 0.16.0); earlier releases not read"},
	// Since 0.18.0: PR #30515 (opened 2025-12-11) merged 2026-03-07, after
	// the v0.17.x tags (neither v0.17.0 nor v0.17.1 has the variable) and
	// before v0.18.0, whose envs.py reads it with default "0"; "1" from the
	// v0.20.0 tag (srcGraphMemTags; srcFAGraphMemEnv).
	{Name: GraphMemoryVariable, Owner: "vllm", Span: Span{Since: v0180}, Default: "1 from 0.20.0, 0 before",
		Doc:    "1: subtract vLLM's CUDA-graph memory estimate from the KV-cache budget (see Release.GraphMemoryProfiling); 0: do not",
		Source: srcGraphMemTags + "; " + srcGraphMemory + "; " + srcFAGraphMemEnv},
	{Name: "VLLM_ENGINE_READY_TIMEOUT_S", Owner: "vllm", Span: Span{Since: v0140}, Default: "600",
		Doc:    "how long the frontend waits for engines (see EngineStartup)",
		Source: srcTagRead("v0.13.0 (absent) and v0.14.0 (present)", "vllm/envs.py") + "; " + srcReadyTimeout},
	{Name: "VLLM_ATTENTION_BACKEND", Owner: "vllm", Span: Span{Since: vPre, Removed: v0150}, Deprecated: v0140,
		Doc: "force an attention backend; deprecated for --attention-backend / --attention-config.backend, then no longer read (vLLM only warns \"Unknown vLLM environment variable\")",
		Source: srcTagRead("v0.5.3 (present); v0.14.1 (present) and v0.15.0 (absent)", "vllm/envs.py") + "; " + srcEnvs + "; listed in " + srcEnvPages + " for 0.9.0.1; issue #12543 (0.7.0 image sets it); deprecation warning seen in 0.14.1 (EuroEval/EuroEval #1488: 'will be removed in v0.14.0 or v1.0.0'); " +
			srcAttnEnvGone + "; backend names vary by release, so values are not checked"},
	{Name: "VLLM_LOGGING_LEVEL", Owner: "vllm", Span: Span{Since: vPre}, Default: "INFO", Doc: "vLLM log level", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/envs.py") + "; " + srcEnvs + "; first release (before 0.5.3) not read"},
	{Name: "VLLM_API_KEY", Owner: "vllm", Span: Span{Since: vPre}, Verified: true, Secret: true, Doc: "API key the server requires",
		Source: srcEnvPages + " (0.9.0.1 to 0.16.0); vllm/entrypoints/openai/api_server.py at v0.3.0 (first tag with it; absent at v0.2.7), vllm/envs.py from v0.4.2 to v0.8.5 (qa44b F11)"},

	{Name: "GLOO_SOCKET_IFNAME", Owner: "gloo", Doc: "interface for Gloo (CPU groups, DP coordination)", Verified: true, Source: srcEPDocs},
	{Name: "NCCL_SOCKET_IFNAME", Owner: "nccl", Doc: "NCCL bootstrap/socket interface (prefix list; ^ excludes, = matches exactly)", Verified: true,
		Source: "docs.nvidia.com/deeplearning/nccl/archives/nccl_2234/user-guide/docs/env.html"},
	{Name: "NCCL_IB_HCA", Owner: "nccl", Doc: "RDMA HCAs NCCL uses", Source: srcFacts},
	{Name: "NCCL_IB_GID_INDEX", Owner: "nccl", Doc: "RoCE GID index; unset lets NCCL pick one (see NCCLGIDIndexDefault)", Verified: true, Source: srcNCCLGID},
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

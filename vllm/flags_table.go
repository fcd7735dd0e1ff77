package vllm

// Sources cited by the tables.
const (
	srcFacts   = "vllm-facts.md"
	srcDump    = "vllm-facts.md [dump-v0.22.1]: argparse of vllm/vllm-openai:v0.22.1"
	srcServe   = "docs.vllm.ai/en/v{0.9.0,0.9.1,0.12.0,0.16.0}/api/vllm/entrypoints/cli/serve (serve.py per release)"
	srcCache   = "docs.vllm.ai/en/v{0.10.2,0.26.0,0.29.0,stable}/api/vllm/config/cache (CacheConfig.gpu_memory_utilization)"
	srcOptLvl  = "docs.vllm.ai/en/v0.12.0/design/optimization_levels (-O0..-O3 = --optimization-level from 0.12.0)"
	srcPar0101 = "docs.vllm.ai/en/v0.10.1.1/api/vllm/config/parallel (ParallelConfig fields)"
	srcPar012  = "docs.vllm.ai/en/v0.12.0/api/vllm/config/parallel (EPLBConfig, ExpertPlacementStrategy)"
	srcA2APR   = "PR #26732 (--all2all-backend, v0.11.1); issue #27347 (unrecognized in v0.11.0)"
	srcSwapPR  = "PR #36216 (--swap-space removed in v0.18.0); unslothai/unsloth-zoo #1210"
	srcEPDocs  = "docs.vllm.ai serving/expert_parallel_deployment (v0.10.1.1, v0.12, stable)"
)

var (
	v090  = mustVersion("0.9.0")
	v091  = mustVersion("0.9.1")
	v092  = mustVersion("0.9.2")
	v0100 = mustVersion("0.10.0")
	v0101 = mustVersion("0.10.1")
	v0102 = mustVersion("0.10.2")
	v0110 = mustVersion("0.11.0")
	v0111 = mustVersion("0.11.1")
	v0120 = mustVersion("0.12.0")
	v0130 = mustVersion("0.13.0")
	v0140 = mustVersion("0.14.0")
	v0150 = mustVersion("0.15.0")
	v0160 = mustVersion("0.16.0")
	v0180 = mustVersion("0.18.0")
	v0200 = mustVersion("0.20.0")
	v0220 = mustVersion("0.22.0")
)

// kvDTypes090 etc. are --kv-cache-dtype choices per release span (vllm-facts.md §1.3;
// 0.9.x and 0.10.x verified against docs.vllm.ai CacheDType for v0.9.2 and v0.10.0).
var (
	kvDTypes090  = []string{"auto", "fp8", "fp8_e4m3", "fp8_e5m2"}
	kvDTypes0100 = []string{"auto", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc"}
	kvDTypes0111 = []string{"auto", "bfloat16", "fp8", "fp8_ds_mla", "fp8_e4m3", "fp8_e5m2", "fp8_inc"}
	kvDTypes0220 = []string{"auto", "bfloat16", "float16", "fp8", "fp8_ds_mla", "fp8_e4m3", "fp8_e5m2", "fp8_inc",
		"fp8_per_token_head", "int8_per_token_head", "nvfp4"}
	blockSizes090  = []string{"1", "8", "16", "32", "64", "128"}
	blockSizes0111 = []string{"1", "8", "16", "32", "64", "128", "256"}
	dtypes         = []string{"auto", "bfloat16", "float", "float16", "float32", "half"}
	execBackends   = []string{"ray", "mp", "uni", "external_launcher"}
)

// flagTable is every `vllm serve` flag vlaunch knows. It is not the whole
// parser (vLLM has ~200 options); it covers parallelism, memory, scheduler,
// numerics, compile, speculative, server and logging flags that launch
// scripts for large multi-node deployments use. A flag absent from the table
// is "unknown to vlaunch", not necessarily unknown to vLLM.
var flagTable = []Flag{
	// --- parallelism (vllm-facts.md §1.2) ---
	{Name: "tensor-parallel-size", Aliases: []string{"-tp"}, Kind: Int, Default: "1", Span: Span{Since: v090},
		Doc: "TP degree inside one engine (one DP rank)", Verified: true, Source: srcPar0101},
	{Name: "pipeline-parallel-size", Aliases: []string{"-pp"}, Kind: Int, Default: "1", Span: Span{Since: v090},
		Doc: "PP stages per engine", Verified: true, Source: srcPar0101},
	{Name: "data-parallel-size", Aliases: []string{"-dp"}, Kind: Int, Default: "1", Span: Span{Since: v090},
		Doc: "global number of DP ranks across all nodes", Verified: true, Source: srcPar0101},
	{Name: "data-parallel-size-local", Aliases: []string{"-dpl"}, Kind: Int, Span: Span{Since: v090},
		Doc: "DP ranks on this node; unset = all ranks local (breaks multi-node)", Verified: true, Source: srcPar0101},
	{Name: "data-parallel-start-rank", Aliases: []string{"-dpr"}, Kind: Int, Span: Span{Since: v090},
		Doc: "first global DP rank on this node (secondary nodes); >0 without --headless infers hybrid LB in newer releases", Source: srcFacts},
	{Name: "data-parallel-rank", Aliases: []string{"-dpn"}, Kind: Int, Span: Span{Since: v0100},
		Doc: "exact DP rank of this instance: external-LB mode (MoE only in newest releases)", Source: srcFacts},
	{Name: "data-parallel-address", Aliases: []string{"-dpa"}, Kind: String, Span: Span{Since: v090},
		Doc: "address of DP node 0; identical on all nodes", Verified: true, Source: srcPar0101},
	{Name: "data-parallel-rpc-port", Aliases: []string{"-dpp"}, Kind: Int, Default: "29550", Span: Span{Since: v090},
		Doc: "ZMQ RPC port on DP node 0; identical on all nodes", Verified: true, Source: srcPar0101},
	{Name: "data-parallel-backend", Aliases: []string{"-dpb"}, Kind: String, Choices: []string{"mp", "ray"}, Default: "mp",
		Span: Span{Since: v0100}, Doc: "launch DP ranks per node (mp) or from the head through Ray", Source: srcPar0101},
	{Name: "data-parallel-hybrid-lb", Aliases: []string{"-dph"}, Kind: Bool, Default: "False", Span: Span{Since: v0101},
		Doc: "hybrid LB: an API server per node over its local ranks; not with --headless", Source: srcFacts},
	{Name: "data-parallel-external-lb", Aliases: []string{"-dpe"}, Kind: Bool, Default: "False", Span: Span{Since: v0101},
		Doc: "external LB: one server per rank", Verified: true, Source: srcPar0101},
	{Name: "data-parallel-multi-port-external-lb", Aliases: []string{"-dpm"}, Kind: StoreTrue, Span: Span{Since: v0220},
		Doc: "node-local supervisor starts one external-LB API server per local rank (present in 0.22.1; first release unverified)", Source: srcDump},
	{Name: "data-parallel-supervisor-port", Kind: Int, Default: "9256", Span: Span{Since: v0220},
		Doc: "aggregated health port of the multi-port supervisor", Source: srcDump},
	{Name: "headless", Kind: StoreTrue, Span: Span{Since: v090},
		Doc: "engine cores only, no API server (secondary nodes)", Verified: true, Source: srcServe},
	{Name: "api-server-count", Aliases: []string{"-asc"}, Kind: Int, Default: "1", Span: Span{Since: v091, Removed: v0150},
		Doc: "API server processes; default 1", Verified: true, Source: srcServe + " (0.9.0 has no such flag; 0.12.0 compares to 1)"},
	{Name: "api-server-count", Aliases: []string{"-asc"}, Kind: Int, Span: Span{Since: v0150},
		Doc:    "API server processes; unset = auto (DP size for internal LB, local DP for hybrid, 1 for external); forbidden with --headless",
		Source: srcServe + " (auto seen in 0.16.0; 0.13-0.15 switch point unverified, vllm-facts.md says v0.15+)"},
	{Name: "enable-expert-parallel", Aliases: []string{"-ep"}, Kind: Bool, Default: "False", Span: Span{Since: v090},
		Doc: "MoE layers use EP (size TP x DP) instead of TP", Verified: true, Source: srcPar0101},
	{Name: "enable-eplb", Kind: Bool, Default: "False", Span: Span{Since: v092},
		Doc: "expert-parallel load balancer (first release ≈0.9.2, unverified)", Source: srcFacts},
	{Name: "num-redundant-experts", Kind: Int, Default: "0", Span: Span{Since: v092, Removed: v0120}, Deprecated: v0110,
		Doc: "EPLB redundant experts; replaced by --eplb-config", Source: srcFacts + " (deprecated ≈0.11, 'removed in v0.12.0')"},
	{Name: "eplb-window-size", Kind: Int, Default: "1000", Span: Span{Since: v092, Removed: v0120}, Deprecated: v0110,
		Doc: "EPLB window; replaced by --eplb-config", Source: srcFacts},
	{Name: "eplb-step-interval", Kind: Int, Default: "3000", Span: Span{Since: v092, Removed: v0120}, Deprecated: v0110,
		Doc: "EPLB rebalance interval; replaced by --eplb-config", Source: srcFacts},
	{Name: "eplb-log-balancedness", Kind: Bool, Default: "False", Span: Span{Since: v092, Removed: v0120}, Deprecated: v0110,
		Doc: "EPLB logging; replaced by --eplb-config", Source: srcFacts},
	{Name: "eplb-config", Kind: JSON, Span: Span{Since: v0102},
		Doc: "EPLB settings as JSON (window_size, step_interval, num_redundant_experts, ...)", Verified: true,
		Source: "docs.vllm.ai/en/v0.10.2/api/vllm/config/parallel (EPLBConfig first appears in 0.10.2; absent from the 0.10.1.1 page)"},
	{Name: "all2all-backend", Kind: String, Choices: nil, Default: "allgather_reducescatter", Span: Span{Since: v0111},
		Doc: "MoE dispatch/combine backend (choices: see Release.All2AllBackends)", Verified: true, Source: srcA2APR},
	{Name: "enable-dbo", Kind: Bool, Default: "False", Span: Span{Since: v0110},
		Doc: "dual-batch overlap; needs EP+DP and a DeepEP backend", Source: srcFacts + " (PR #23693)"},
	{Name: "dbo-decode-token-threshold", Kind: Int, Default: "32", Span: Span{Since: v0110}, Doc: "DBO decode threshold", Source: srcFacts},
	{Name: "dbo-prefill-token-threshold", Kind: Int, Default: "512", Span: Span{Since: v0110}, Doc: "DBO prefill threshold", Source: srcFacts},
	{Name: "expert-placement-strategy", Kind: String, Choices: []string{"linear", "round_robin"}, Default: "linear", Span: Span{Since: v0110},
		Doc: "how logical experts map to EP ranks", Source: srcPar012 + "; first release ≈0.11"},
	{Name: "enable-elastic-ep", Kind: Bool, Default: "False", Span: Span{Since: v0220},
		Doc: "elastic EP (needs EPLB, PP=1, one API server); first release unverified", Source: srcDump},
	{Name: "enable-ep-weight-filter", Kind: Bool, Default: "False", Span: Span{Since: v0220},
		Doc: "load only local experts' weights; first release unverified", Source: srcDump},
	{Name: "distributed-executor-backend", Kind: String, Choices: execBackends, Span: Span{Since: v090},
		Doc: "executor for TP/PP workers within an engine; unset = auto", Verified: true, Source: srcPar0101},
	{Name: "nnodes", Aliases: []string{"-n"}, Kind: Int, Default: "1", Span: Span{Since: v0120},
		Doc: "mp multi-node for one engine spanning nodes (PR #23691); first release ≈0.11.1/0.12, 0.12.0 assumed", Source: srcFacts},
	{Name: "node-rank", Aliases: []string{"-r"}, Kind: Int, Default: "0", Span: Span{Since: v0120},
		Doc: "this node's rank with --nnodes; rank > 0 also needs --headless", Source: srcFacts},
	{Name: "master-addr", Kind: String, Default: "127.0.0.1", Span: Span{Since: v0120}, Doc: "address of node rank 0 with --nnodes", Source: srcFacts},
	{Name: "master-port", Kind: Int, Default: "29501", Span: Span{Since: v0120}, Doc: "torch.distributed port with --nnodes", Source: srcFacts},
	{Name: "decode-context-parallel-size", Aliases: []string{"-dcp"}, Kind: Int, Default: "1", Span: Span{Since: v0110},
		Doc: "decode context parallel (TP divisible by DCP); first release unverified", Source: srcFacts},
	{Name: "prefill-context-parallel-size", Aliases: []string{"-pcp"}, Kind: Int, Default: "1", Span: Span{Since: v0130},
		Doc: "prefill context parallel; first release unverified", Source: srcFacts},
	{Name: "disable-custom-all-reduce", Kind: Bool, Default: "False", Span: Span{Since: v090},
		Doc: "disable vLLM's custom intra-node all-reduce", Source: srcFacts},
	{Name: "disable-nccl-for-dp-synchronization", Kind: Bool, Span: Span{Since: v0220},
		Doc: "use Gloo for the per-step DP sync; first release unverified", Source: srcFacts},

	// --- memory / scheduler (§1.3) ---
	{Name: "gpu-memory-utilization", Kind: Float, Default: "0.9", Span: Span{Since: v090, Removed: v0220},
		Doc:    "fraction of total GPU memory this instance may use (per GPU)",
		Source: srcCache + "; 0.9 verified through 0.10.2, switch to 0.92 placed at 0.22.0 (seen in 0.22.1; exact release unverified)"},
	{Name: "gpu-memory-utilization", Kind: Float, Default: "0.92", Span: Span{Since: v0220},
		Doc: "fraction of total GPU memory this instance may use (per GPU)", Verified: true, Source: srcCache},
	{Name: "kv-cache-memory-bytes", Kind: HumanInt, Span: Span{Since: v0111},
		Doc: "fixed KV-cache bytes per GPU (overrides utilization for KV sizing); first release ≈0.11.1", Source: srcFacts},
	{Name: "max-model-len", Kind: HumanInt, Span: Span{Since: v090},
		Doc: "context length; human-readable since ≈0.10, -1/auto in newer", Source: srcFacts},
	{Name: "max-num-seqs", Kind: Int, Span: Span{Since: v090}, Doc: "max concurrent sequences per DP rank", Source: srcFacts},
	{Name: "max-num-batched-tokens", Kind: HumanInt, Span: Span{Since: v090}, Doc: "token budget per step per DP rank", Source: srcFacts},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes090, Default: "auto", Span: Span{Since: v090, Removed: v0100},
		Doc: "KV cache storage type", Verified: true, Source: "docs.vllm.ai/en/v0.9.2/api/vllm/config (CacheDType)"},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes0100, Default: "auto", Span: Span{Since: v0100, Removed: v0111},
		Doc: "KV cache storage type", Verified: true, Source: "docs.vllm.ai/en/v0.10.0 and v0.10.2 config (CacheDType)"},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes0111, Default: "auto", Span: Span{Since: v0111, Removed: v0220},
		Doc: "KV cache storage type", Source: srcFacts},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes0220, Default: "auto", Span: Span{Since: v0220},
		Doc: "KV cache storage type (turboquant_* variants also exist and are accepted by the linter as unknown choices)", Source: srcDump},
	{Name: "block-size", Kind: Int, Choices: blockSizes090, Span: Span{Since: v090, Removed: v0111},
		Doc: "tokens per KV block; MLA backends override it", Verified: true, Source: "docs.vllm.ai/en/v0.9.2, v0.10.2 config (BlockSize Literal)"},
	{Name: "block-size", Kind: Int, Choices: blockSizes0111, Span: Span{Since: v0111, Removed: v0220},
		Doc: "tokens per KV block; MLA backends override it", Source: srcFacts},
	{Name: "block-size", Kind: Int, Span: Span{Since: v0220}, Doc: "tokens per KV block (free int)", Source: srcDump},
	{Name: "enable-prefix-caching", Kind: Bool, Span: Span{Since: v090}, Doc: "prefix caching (V1 default on)", Source: srcFacts},
	{Name: "enable-chunked-prefill", Kind: Bool, Span: Span{Since: v090}, Doc: "chunked prefill (V1 always on)", Source: srcFacts},
	{Name: "num-gpu-blocks-override", Kind: Int, Span: Span{Since: v090}, Doc: "testing: force KV block count", Source: srcFacts},
	{Name: "swap-space", Kind: Float, Default: "4", Span: Span{Since: v090, Removed: v0180},
		Doc: "CPU swap space per GPU (GiB); removed in 0.18.0", Verified: true, Source: srcSwapPR},
	{Name: "cpu-offload-gb", Kind: Float, Default: "0", Span: Span{Since: v090}, Doc: "offload weights to CPU", Source: srcFacts},
	{Name: "async-scheduling", Kind: Bool, Span: Span{Since: v0101},
		Doc: "asynchronous scheduling; first release and default-on release unverified", Source: srcFacts},

	// --- model / numerics / compile / speculative (§1.4) ---
	{Name: "model", Kind: String, Span: Span{Since: v090}, Doc: "model (prefer the positional form)", Source: srcFacts},
	{Name: "tokenizer", Kind: String, Span: Span{Since: v090}, Doc: "tokenizer name or path", Source: srcFacts},
	{Name: "revision", Kind: String, Span: Span{Since: v090}, Doc: "model revision", Source: srcFacts},
	{Name: "download-dir", Kind: String, Span: Span{Since: v090}, Doc: "weights download directory", Source: srcFacts},
	{Name: "load-format", Kind: String, Default: "auto", Span: Span{Since: v090}, Doc: "weights format", Source: srcFacts},
	{Name: "config", Kind: String, Span: Span{Since: v090}, Doc: "YAML file of flags (long names without dashes)", Source: srcDump},
	{Name: "seed", Kind: Int, Span: Span{Since: v090}, Doc: "random seed", Source: srcFacts},
	{Name: "quantization", Aliases: []string{"-q"}, Kind: String, Span: Span{Since: v090},
		Doc: "weights quantization; auto-detected from the checkpoint", Source: srcFacts},
	{Name: "dtype", Kind: String, Choices: dtypes, Default: "auto", Span: Span{Since: v090}, Doc: "model dtype", Source: srcFacts},
	{Name: "trust-remote-code", Kind: Bool, Default: "False", Span: Span{Since: v090},
		Doc: "trust model code from the hub (--no- form only where the flag is BooleanOptionalAction; unverified before 0.10)", Source: srcFacts},
	{Name: "served-model-name", Kind: StringList, Span: Span{Since: v090}, Doc: "names exposed by the API", Source: srcFacts},
	{Name: "hf-overrides", Kind: JSON, Span: Span{Since: v090}, Doc: "overrides for the HF config", Source: srcFacts},
	{Name: "enforce-eager", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "disable CUDA graphs", Source: srcFacts},
	{Name: "compilation-config", Aliases: []string{"-O"}, Kind: JSON, Span: Span{Since: v090, Removed: v0120},
		Doc: "compilation config JSON or level; -O is its alias up to 0.11.x", Source: srcFacts},
	{Name: "compilation-config", Aliases: []string{"-cc"}, Kind: JSON, Span: Span{Since: v0120},
		Doc: "compilation config JSON; alias -cc from 0.12.0", Verified: true, Source: srcOptLvl},
	{Name: "optimization-level", Aliases: []string{"-O"}, Kind: Int, Choices: []string{"0", "1", "2", "3"}, Default: "2", Span: Span{Since: v0120},
		Doc: "preset bundles -O0..-O3", Verified: true, Source: srcOptLvl},
	{Name: "cuda-graph-sizes", Kind: StringList, Span: Span{Since: v090, Removed: v0130}, Deprecated: v0110,
		Doc: "CUDA graph capture sizes; deprecated for --cudagraph-capture-sizes, 'removed in v0.13.0'", Source: srcFacts},
	{Name: "cudagraph-capture-sizes", Kind: StringList, Span: Span{Since: v0111},
		Doc: "CUDA graph capture sizes; first release unverified", Source: srcFacts},
	{Name: "max-cudagraph-capture-size", Kind: Int, Span: Span{Since: v0111},
		Doc: "largest CUDA graph batch; first release unverified", Source: srcFacts},
	{Name: "speculative-config", Aliases: []string{"-sc"}, Kind: JSON, Span: Span{Since: v090},
		Doc: "speculative decoding JSON (e.g. deepseek_mtp)", Source: srcFacts + " (-sc alias from the 0.22.1 dump)"},
	{Name: "kv-transfer-config", Kind: JSON, Span: Span{Since: v090}, Doc: "P/D disaggregation connector", Source: srcFacts},
	{Name: "attention-backend", Kind: String, Span: Span{Since: v0140},
		Doc: "force an attention backend (replaces VLLM_ATTENTION_BACKEND); first release unverified", Source: srcFacts},
	{Name: "attention-config", Aliases: []string{"-ac"}, Kind: JSON, Span: Span{Since: v0140},
		Doc: "attention config JSON; first release unverified", Source: srcDump},
	{Name: "moe-backend", Kind: String, Span: Span{Since: v0200},
		Doc: "expert GEMM kernel (auto, deep_gemm, triton, cutlass, flashinfer_*, marlin, ...); first release unverified", Source: srcDump},
	{Name: "performance-mode", Kind: String, Choices: []string{"balanced", "interactivity", "throughput"}, Span: Span{Since: v0220},
		Doc: "preset; first release unverified", Source: srcDump},
	{Name: "spec-method", Kind: String, Span: Span{Since: v0220}, Doc: "speculative method shorthand", Source: srcDump},
	{Name: "spec-tokens", Kind: Int, Span: Span{Since: v0220}, Doc: "speculative tokens shorthand", Source: srcDump},

	// --- server / logging ---
	{Name: "host", Kind: String, Span: Span{Since: v090}, Doc: "API bind address (unset = all interfaces)", Verified: true, Source: srcBoth + "; " + srcServe012},
	{Name: "port", Kind: Int, Default: "8000", Span: Span{Since: v090}, Doc: "API port", Verified: true, Source: srcBoth + "; " + srcServe012},
	{Name: "api-key", Kind: StringList, Span: Span{Since: v090}, Doc: "API keys (prefer VLLM_API_KEY from the environment)", Verified: true, Source: srcBoth + "; " + srcFront014},
	{Name: "uvicorn-log-level", Kind: String, Choices: uvicornLogLevels, Default: "info", Span: Span{Since: v090}, Doc: "uvicorn log level",
		Verified: true, Source: srcBoth + "; choices: " + srcServe012 + ", " + srcFront014},
	{Name: "disable-log-stats", Kind: StoreTrue, Span: Span{Since: v090}, Doc: "no periodic stats logging", Verified: true, Source: srcDump + "; " + srcServe012},
	{Name: "aggregate-engine-logging", Kind: StoreTrue, Span: Span{Since: v0111},
		Doc: "one aggregate log line instead of per-DP-engine stats; first release unverified", Source: srcDump},
	{Name: "enable-auto-tool-choice", Kind: Bool, Default: "False", Span: Span{Since: v090},
		Doc: "automatic tool choice; requires --tool-call-parser (store_true before FrontendArgs became a dataclass)", Verified: true, Source: srcBoth},
	{Name: "tool-call-parser", Kind: String, Span: Span{Since: v090},
		Doc: "tool call parser (built-in names grow every release and plugins add more, so values are not checked)", Verified: true, Source: srcBoth},
	{Name: "reasoning-parser", Kind: String, Span: Span{Since: v090},
		Doc: "reasoning parser (replaces --enable-reasoning; names grow every release, values not checked)", Source: srcFacts + "; issue #27389 argparse dump"},
	{Name: "chat-template", Kind: String, Span: Span{Since: v090}, Doc: "chat template file or inline template", Verified: true, Source: srcBoth},
}

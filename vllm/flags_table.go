package vllm

// Sources cited by the tables.
const (
	srcFacts   = "vllm-facts.md"
	srcDump    = "vllm-facts.md [dump-v0.22.1]: argparse of vllm/vllm-openai:v0.22.1"
	srcCache   = "docs.vllm.ai/en/v{0.10.2,0.26.0,0.29.0,stable}/api/vllm/config/cache (CacheConfig.gpu_memory_utilization)"
	srcOptLvl  = "docs.vllm.ai/en/v0.12.0/design/optimization_levels (-O0..-O3 = --optimization-level from 0.12.0)"
	srcPar0101 = "docs.vllm.ai/en/v0.10.1.1/api/vllm/config/parallel (ParallelConfig fields)"
	srcPar012  = "docs.vllm.ai/en/v0.12.0/api/vllm/config/parallel (EPLBConfig, ExpertPlacementStrategy)"
	srcA2APR   = "PR #26732 (--all2all-backend, v0.11.1); issue #27347 (unrecognized in v0.11.0)"
	// srcSwapPR: PR #36216 (2026-03) removed --swap-space from EngineArgs
	// (and swap_space from LLM(), which kept popping it with a
	// DeprecationWarning until PR #48549, July 2026); unsloth-zoo #1210 read
	// EngineArgs in every release 0.15.0-0.29.0: present up to 0.17.1,
	// absent from 0.18.0. vllm-ascend's v0.18.0 and v0.23.0 docs still show
	// `--swap-space 16` in the Qwen3-Omni tutorial: a line added 2026-01-08
	// (#3991) while its CI ran vLLM v0.13.0 and copied unchanged since, so
	// no evidence for later releases.
	srcSwapPR = "PR #36216 (--swap-space removed from EngineArgs in v0.18.0); unslothai/unsloth-zoo #1210 (EngineArgs of 0.15.0-0.29.0: present up to 0.17.1); " +
		"PR #48549 (July 2026: the LLM() keyword, deprecated from v0.18.0, cleaned up); vllm-ascend docs v0.18.0/v0.23.0 use it in a line written for vLLM v0.13.0 (vllm-ascend #3991), stale"
	srcEPDocs = "docs.vllm.ai/en/v0.10.1.1/serving/expert_parallel_deployment (also v0.12, stable)"
	// srcOld is the evidence for engine flags that predate the table: the
	// pre-0.5 and 0.5.0 argparse synopses, with presence today from the
	// 0.8.5 synopsis and the 0.22.1 argparse dump.
	srcOld = srcUsagePre05 + "; " + srcUsage050 + "; " + srcUsage085 + "; " + srcDump
	// srcDPServe: 0.9.0's serve.py runs headless DP engine cores, which need
	// the DP size/local/start-rank/address/port flags; the 0.8.0 and 0.8.3
	// DP examples still drive DP through VLLM_DP_* variables.
	srcDPServe = srcServe090 + "; " + srcDP080 + "; " + srcDP083 + "; " + srcPar0101 + "; first release 0.8.4-0.9.0 unverified"
	// srcEPLBOld: PR #20562 (review 2025-07-31) introduced --eplb-config and
	// deprecated the separate EPLB knobs ("This will be removed in v0.12.0");
	// its arg_utils diff drops the separate add_argument calls; PR #55989
	// (2026) finds none of them registered on main.
	srcEPLBOld = "PR #20562 (Jul 2025: --eplb-config, ParallelConfig properties deprecated \"This will be removed in v0.12.0\"; its arg_utils diff drops the separate add_argument calls); " +
		"PR #55989 (2026 main: --num-redundant-experts not registered); " + srcFacts + " (deprecated ≈0.11, absent in 0.22.1); whether the CLI kept deprecated aliases until 0.12.0 is unverified"
	// srcSeenDump: a flag known only from the 0.22.1 argparse dump. The dump
	// shows it in 0.22.1; nothing shows a release without it, so its first
	// release is unknown, not 0.22.0 (issue #23: recording the release it
	// was first seen in as its first release made lint call it refused on
	// every earlier release). Lint says it cannot verify earlier releases.
	srcSeenDump = "first release unverified: seen in the 0.22.1 dump, unknown before (recorded from before the table, confirmed from 0.22.1)"
	// srcAttnFlags: the attention flags came with the AttentionConfig
	// migration (PR #26315, merged 2025-12-05, per PR #50346's history);
	// 0.11.2's selector reads only VLLM_ATTENTION_BACKEND and a programmatic
	// override, so 0.12.0 is the earliest release that may have them.
	srcAttnFlags = "PR #26315 (merged 2025-12-05: AttentionConfig, --attention-backend / attention_config.backend replace VLLM_ATTENTION_BACKEND, per PR #50346); " +
		"docs.vllm.ai/en/v0.11.2/api/vllm/attention/selector (reads only VLLM_ATTENTION_BACKEND and a forced backend: none in 0.11.2)"
	srcUnknown = "first release unverified, recorded as before the table so that it is never reported as too new; " +
		"confirmed from 0.9.0 only, the release vllm-facts.md (secondary) places it in"
)

// srcServedModelName: --served-model-name predates the table's first
// release (0.5.3). PR #2894 (merged April 2024) changed the existing
// option of vllm/entrypoints/openai/cli_args.py to take several names (its
// review thread edits the option's help at cli_args.py:65); a comment there
// (2024-06-01) reports vLLM 0.4.1 taking only one name, so 0.4.1 had the
// option. Issue #23: the table said "first seen 0.9.0", and lint called it
// unverifiable on 0.5.3-0.8.5.
const srcServedModelName = "PR #2894 (Allow model to be served under multiple names, April 2024: edits the existing --served-model-name of " +
	"vllm/entrypoints/openai/cli_args.py; a comment there: vLLM 0.4.1 takes one name only); " +
	"vllm-project/vllm vllm/engine/arg_utils.py@001999d2f360 (EngineArgs.served_model_name, main of the 0.7.0 period); " +
	"issue #13150 (vLLM 0.7.2 started with --served-model-name); " + srcTag028 + "; " + srcFacts +
	"; its first release (0.4.1 or earlier, before 0.5.3, the table's first) not read"

// srcTurboQuant: the TurboQuant --kv-cache-dtype presets. PR #38479
// (TurboQuant attention backend) is in the v0.20.0 release notes (as quoted
// by defilantech/LLMKube #354); a v0.20.0 server log in that PR's thread
// (banner "version 0.20.0") was started with --kv-cache-dtype
// turboquant_4bit_nc, so argparse accepted it; the vLLM blog (vllm-project.github.io
// PR #204, 2026-05-11) names the four presets; issue #50709 runs 0.26.0 with
// --kv-cache-dtype turboquant_k8v4 (it parses and fails later, in the
// hybrid-model KV path); TritonMLATurboQuantBackend lists the same four as
// CacheDType values (vllm/v1/attention/backends, main).
const srcTurboQuant = "PR #38479 (TurboQuant backend; in the v0.20.0 release notes per defilantech/LLMKube #354; " +
	"a vLLM 0.20.0 server log in its thread started with --kv-cache-dtype turboquant_4bit_nc); vllm-project.github.io PR #204 (blog, 2026-05-11: " +
	"turboquant_{k8v4,4bit_nc,k3v4_nc,3bit_nc}); issue #50709 (0.26.0 with --kv-cache-dtype turboquant_k8v4); " +
	"TritonMLATurboQuantBackend.supported_kv_cache_dtypes (main); whether 0.17-0.19 had them is unverified (lenient: accepted)"

// srcKVDTypes028: vLLM 0.28.0's CacheDType Literal (vllm/config/cache.py at
// the v0.28.0 tag 2cf0a6915ce5, read in the third-party checkout
// bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a, whose
// HYQUANT_VLLM_IMPLEMENTATION_ZH.md names that tag commit as its base; its
// own hyquant_k4v4 is left out) lists int4_per_token_head and
// nvfp4_4over6 besides the 0.22.1 dump's values. The 0.22.1 dump has
// neither; nvfp4_4over6 came with PR #45187 (opened 2026-06-10, after
// 0.22.1); int4_per_token_head is on main by PR #48842 (2026-07-16). So
// neither is in 0.22.x, and the first release with them lies in
// 0.23-0.28 (unverified; accepted from 0.23.0, lenient). Issue #23 audit
// (factaudit): the table refused both at 0.28.0.
const srcKVDTypes028 = "vllm/config/cache.py CacheDType at the v0.28.0 tag 2cf0a6915ce5 (third-party checkout bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a): " +
	"int4_per_token_head, nvfp4_4over6 added to the 0.22.1 dump's list; PR #45187 (nvfp4_4over6, opened 2026-06-10); PR #48842 (2026-07-16: int4_per_token_head on main); " +
	"first release 0.23-0.28 unverified"

// srcBlockSizeTags: --block-size's choices at every release tag 0.5.3-0.24.0.
var srcBlockSizeTags = srcTagRead("v0.5.3-v0.24.0 (choices=[8, 16, 32] to v0.5.4; [8, 16, 32, 128, 256, 512, 1024, 2048] at v0.5.5; "+
	"[8, 16, 32] at v0.6.0-v0.6.3.post1 and v0.6.5; [8, 16, 32, 64, 128] at v0.6.4, v0.6.4.post1 and v0.6.6-v0.8.4; "+
	"CacheConfig BlockSize Literal[1, 8, 16, 32, 64, 128] v0.8.5-v0.11.0, + 256 v0.11.1-v0.17.1; an int field from v0.18.0)",
	"vllm/engine/arg_utils.py, vllm/config.py / vllm/config/cache.py")

// srcKVDTypeTags: --kv-cache-dtype's choices at the tags (CacheDType).
var srcKVDTypeTags = srcTagRead("v0.5.3-v0.24.0 (choices auto, fp8, fp8_e5m2, fp8_e4m3 to v0.9.2; + fp8_inc v0.10.0; + bfloat16 v0.11.0; "+
	"+ fp8_ds_mla v0.11.1; + float16 v0.18.0; + fp8_per_token_head, int8_per_token_head, nvfp4, turboquant_{k8v4,4bit_nc,k3v4_nc,3bit_nc} v0.20.0, "+
	"unchanged to v0.24.0)", "vllm/engine/arg_utils.py, vllm/config.py / vllm/config/cache.py")

// srcExecBackendTags: --distributed-executor-backend's choices at the tags.
var srcExecBackendTags = srcTagRead("v0.5.3-v0.24.0 (choices=['ray', 'mp'] to v0.6.6.post1; ['ray', 'mp', 'uni', 'external_launcher'] "+
	"from v0.7.0; DistributedExecutorBackend Literal v0.8.5-v0.10.1.1; from v0.10.2 str | Literal | type[Executor], no choices: "+
	"a qualified Executor class name is accepted too: vllm/v1/executor/abstract.py Executor.get_class, read at v0.11.0)", "vllm/engine/arg_utils.py, vllm/config.py / vllm/config/parallel.py")

// kvDTypes050 etc. are --kv-cache-dtype choices per release span.
var (
	kvDTypes050  = []string{"auto", "fp8", "fp8_e4m3", "fp8_e5m2"}
	kvDTypes0100 = []string{"auto", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc"}
	kvDTypes0110 = []string{"auto", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc"}
	kvDTypes0111 = []string{"auto", "bfloat16", "fp8", "fp8_ds_mla", "fp8_e4m3", "fp8_e5m2", "fp8_inc"}
	kvDTypes0180 = []string{"auto", "bfloat16", "float16", "fp8", "fp8_ds_mla", "fp8_e4m3", "fp8_e5m2", "fp8_inc"}
	// kvDTypes0220 holds the 0.22.1 dump's choices and the four TurboQuant
	// presets (srcTurboQuant), which the dump's list lacks although 0.20.0
	// already parses them (issue #23: rejected at 0.22 here, accepted there);
	// exactly CacheDType at the tags v0.20.0-v0.24.0 (srcKVDTypeTags).
	kvDTypes0220 = []string{"auto", "bfloat16", "float16", "fp8", "fp8_ds_mla", "fp8_e4m3", "fp8_e5m2", "fp8_inc",
		"fp8_per_token_head", "int8_per_token_head", "nvfp4",
		"turboquant_k8v4", "turboquant_4bit_nc", "turboquant_k3v4_nc", "turboquant_3bit_nc"}
	// kvDTypes0230 adds the two values the 0.22.1 dump and the v0.24.0 tag
	// lack and vLLM 0.28.0's CacheDType has (srcKVDTypes028).
	kvDTypes0230   = append(append([]string{}, kvDTypes0220...), "int4_per_token_head", "nvfp4_4over6")
	blockSizes05   = []string{"8", "16", "32"}
	blockSizes055  = []string{"8", "16", "32", "128", "256", "512", "1024", "2048"}
	blockSizes064  = []string{"8", "16", "32", "64", "128"}
	blockSizes085  = []string{"1", "8", "16", "32", "64", "128"}
	blockSizes0111 = []string{"1", "8", "16", "32", "64", "128", "256"}
	dtypes         = []string{"auto", "bfloat16", "float", "float16", "float32", "half"}
	execBackends05 = []string{"ray", "mp"}
	execBackends   = []string{"ray", "mp", "uni", "external_launcher"}
)

// flagTable is every `vllm serve` flag vlaunch knows. It is not the whole
// parser (vLLM has ~200 options); it covers parallelism, memory, scheduler,
// numerics, compile, speculative, server and logging flags that launch
// scripts for large multi-node deployments use. A flag absent from the table
// is "unknown to vlaunch", not necessarily unknown to vLLM.
var flagTable = []Flag{
	// --- parallelism (vllm-facts.md §1.2) ---
	{Name: "tensor-parallel-size", Aliases: []string{"-tp"}, Kind: Int, Default: "1", Span: Span{Since: vPre},
		Doc: "TP degree inside one engine (one DP rank)", Verified: true, Source: srcOld + "; " + srcPar0101 + "; -tp in the 0.6.4 spec-decode server example"},
	{Name: "pipeline-parallel-size", Aliases: []string{"-pp"}, Kind: Int, Default: "1", Span: Span{Since: vPre},
		Doc: "PP stages per engine", Verified: true, Source: srcOld + "; " + srcPar0101},
	{Name: "data-parallel-size", Aliases: []string{"-dp"}, Kind: Int, Default: "1", Span: Span{Since: v083},
		Doc: "global number of DP ranks across all nodes", Source: srcTagRead("v0.8.2 (absent) and v0.8.3 (present)", "vllm/engine/arg_utils.py") + "; " + srcDPServe},
	{Name: "data-parallel-size-local", Aliases: []string{"-dpl"}, Kind: Int, Span: Span{Since: v090},
		Doc: "DP ranks on this node; unset = all ranks local (breaks multi-node)", Source: srcTagRead("v0.8.5 (absent) and v0.9.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcDPServe},
	{Name: "data-parallel-start-rank", Aliases: []string{"-dpr"}, Kind: Int, Span: Span{Since: v090},
		Doc: "first global DP rank on this node (secondary nodes); see Release.DPLoadBalancing for the LB mode it implies", Source: srcTagRead("v0.8.5 (absent) and v0.9.0 (present)", "vllm/entrypoints/cli/serve.py") + "; " + srcDPServe},
	{Name: "data-parallel-rank", Aliases: []string{"-dpn"}, Kind: Int, Span: Span{Since: v092},
		Doc: "exact DP rank of this instance: external-LB mode (MoE only in newest releases)", Source: srcTagRead("v0.9.1 (absent) and v0.9.2 (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; " + srcExtLBLaunch + "; 0.10.x unverified"},
	{Name: "data-parallel-address", Aliases: []string{"-dpa"}, Kind: String, Span: Span{Since: v090},
		Doc: "address of DP node 0; identical on all nodes", Source: srcTagRead("v0.8.5 (absent) and v0.9.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcDPServe},
	{Name: "data-parallel-rpc-port", Aliases: []string{"-dpp"}, Kind: Int, Default: "29550", Span: Span{Since: v090},
		Doc: "ZMQ RPC port on DP node 0; identical on all nodes", Source: srcTagRead("v0.8.5 (absent) and v0.9.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcDPServe},
	{Name: "data-parallel-backend", Aliases: []string{"-dpb"}, Kind: String, Choices: []string{"mp", "ray"}, Default: "mp",
		Span: Span{Since: v091}, Doc: "launch DP ranks per node (mp) or from the head through Ray",
		Source: srcTagRead("v0.9.0 (absent) and v0.9.1 (present)", "vllm/engine/arg_utils.py") + "; " + srcPar0101 + "; " + srcPar0112 + " (DataParallelBackend Literal ray, mp); Ray DP example PR #18779 (May 2025), so 0.9.1-0.10.0 unverified"},
	{Name: "data-parallel-hybrid-lb", Kind: Bool, Default: "False", Span: Span{Since: v0100, Removed: v0111},
		Doc: "hybrid LB: an API server per node over its local ranks; not with --headless", Source: srcTagRead("v0.11.0 (no -dph alias) and v0.11.1 (-dph alias)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.9.2 (absent) and v0.10.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + " (PRs #21238/#21510); 0.10.1-0.10.2 unverified" + "; " + srcFAIn0110},
	{Name: "data-parallel-hybrid-lb", Aliases: []string{"-dph"}, Kind: Bool, Default: "False", Span: Span{Since: v0111},
		Doc: "hybrid LB: an API server per node over its local ranks; not with --headless", Source: srcTagRead("v0.11.0 (no -dph alias) and v0.11.1 (-dph alias)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.9.2 (absent) and v0.10.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + " (PRs #21238/#21510); 0.10.1-0.10.2 unverified" + "; " + srcFAIn0110},
	{Name: "data-parallel-external-lb", Aliases: []string{"-dpe"}, Kind: Bool, Default: "False", Span: Span{Since: v0111},
		Doc: "external LB: one server per rank", Source: srcTagRead("v0.11.0 (absent) and v0.11.1 (present)", "vllm/engine/arg_utils.py") + "; " + srcFAExternalLB + "; " + srcPar0101 + " lists the field only"},
	{Name: "data-parallel-multi-port-external-lb", Aliases: []string{"-dpm"}, Kind: StoreTrue, Span: Span{Since: v0220},
		Doc:    "node-local supervisor starts one external-LB API server per local rank",
		Source: srcTagRead("v0.21.0 (absent) and v0.22.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcServe016 + " (the 0.22.1 serve.py names the multi-port mode, 0.16.0/0.18.1 do not); " + srcDump + "; 0.20-0.22.0 unverified" + "; " + srcFANotIn019},
	{Name: "data-parallel-supervisor-port", Kind: Int, Default: "9256", Span: Span{Since: v0220},
		Doc: "aggregated health port of the multi-port supervisor", Source: srcTagRead("v0.21.0 (absent) and v0.22.0 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcDump + "; introduced with the multi-port mode (0.20-0.22.0 unverified)" + "; " + srcFANotIn019},
	{Name: "headless", Kind: StoreTrue, Span: Span{Since: v090},
		Doc: "engine cores only, no API server (secondary nodes)", Source: srcTagRead("v0.8.5 (absent) and v0.9.0 (present)", "vllm/entrypoints/cli/serve.py") + "; " + srcServe090 + "; " + srcServe016 + "; 0.8.4/0.8.5 unverified"},
	{Name: "api-server-count", Aliases: []string{"-asc"}, Kind: Int, Default: "1", Span: Span{Since: v091, Removed: v0150}, Verified: true,
		Doc:    "API server processes; default 1",
		Source: srcServe090 + " (no use of it); " + srcServe091 + "; " + srcASCUnset150},
	{Name: "api-server-count", Aliases: []string{"-asc"}, Kind: Int, Span: Span{Since: v0150}, Verified: true,
		Doc:    "API server processes; unset = auto (DP size for internal LB, local DP for hybrid, 1 for external); forbidden with --headless",
		Source: srcServe016 + "; " + srcASCUnset150},
	// --enable-expert-parallel: store_true at the v0.8.0-v0.8.3 tags, a
	// get_kwargs BooleanOptionalAction (--no-enable-expert-parallel) from
	// v0.8.4, the -ep alias from v0.14.0 (absent at v0.13.0).
	{Name: "enable-expert-parallel", Kind: StoreTrue, Default: "False", Span: Span{Since: v080, Removed: v084},
		Doc: "MoE layers use EP (size TP x DP) instead of TP", Source: srcTagRead("v0.7.3 (absent) and v0.8.0 (present, store_true); v0.8.4 (BooleanOptionalAction)", "vllm/engine/arg_utils.py") + "; " + srcExpertParallelFlag},
	{Name: "enable-expert-parallel", Kind: Bool, Default: "False", Span: Span{Since: v084, Removed: v0140},
		Doc: "MoE layers use EP (size TP x DP) instead of TP", Source: srcTagRead("v0.8.3 (store_true) and v0.8.4 (BooleanOptionalAction); v0.13.0 (no -ep alias)", "vllm/engine/arg_utils.py") + "; " + srcExpertParallelFlag},
	{Name: "enable-expert-parallel", Aliases: []string{"-ep"}, Kind: Bool, Default: "False", Span: Span{Since: v0140},
		Doc: "MoE layers use EP (size TP x DP) instead of TP", Source: srcTagRead("v0.13.0 (no -ep alias) and v0.14.0 (-ep alias)", "vllm/engine/arg_utils.py") + "; " + srcExpertParallelFlag},
	{Name: "enable-eplb", Kind: Bool, Default: "False", Span: Span{Since: v092},
		Doc: "expert-parallel load balancer", Source: srcFacts + " (≈0.9.2/0.10); first release unverified"},
	{Name: "num-redundant-experts", Kind: Int, Default: "0", Span: Span{Since: v092, Removed: v0120}, Deprecated: v0110,
		Doc: "EPLB redundant experts; replaced by --eplb-config", Source: srcTagRead("v0.9.1 (absent) and v0.9.2 (present)", "vllm/engine/arg_utils.py") + "; " + srcEPLBOld + "; issue #24523 (Sep 2025 main still parses --num-redundant-experts)"},
	{Name: "eplb-window-size", Kind: Int, Default: "1000", Span: Span{Since: v092, Removed: v0120}, Deprecated: v0110,
		Doc: "EPLB window; replaced by --eplb-config", Source: srcTagRead("v0.9.1 (absent) and v0.9.2 (present)", "vllm/engine/arg_utils.py") + "; " + srcEPLBOld},
	{Name: "eplb-step-interval", Kind: Int, Default: "3000", Span: Span{Since: v092, Removed: v0120}, Deprecated: v0110,
		Doc: "EPLB rebalance interval; replaced by --eplb-config", Source: srcTagRead("v0.9.1 (absent) and v0.9.2 (present)", "vllm/engine/arg_utils.py") + "; " + srcEPLBOld},
	{Name: "eplb-log-balancedness", Kind: Bool, Default: "False", Span: Span{Since: v092, Removed: v0120}, Deprecated: v0110,
		Doc: "EPLB logging; replaced by --eplb-config", Source: srcTagRead("v0.9.1 (absent) and v0.9.2 (present)", "vllm/engine/arg_utils.py") + "; " + srcEPLBOld},
	{Name: "eplb-config", Kind: JSON, Span: Span{Since: v0102},
		Doc: "EPLB settings as JSON (window_size, step_interval, num_redundant_experts, ...)", Verified: true,
		Source: "docs.vllm.ai/en/v0.10.2/api/vllm/config/parallel (EPLBConfig first appears in 0.10.2; absent from the 0.10.1.1 page); " + srcPar0112 + "; " + srcPar014},
	{Name: "all2all-backend", Kind: String, Choices: nil, Default: "allgather_reducescatter", Span: Span{Since: v0111},
		Doc: "MoE dispatch/combine backend (choices: see Release.All2AllBackends)", Verified: true, Source: srcA2APR + "; " + srcPar014},
	{Name: "enable-dbo", Kind: Bool, Default: "False", Span: Span{Since: v0110},
		Doc: "dual-batch overlap; needs EP+DP and a DeepEP backend (see Release.DBORequirement)", Source: srcFacts + " (PR #23693); first release unverified"},
	{Name: "dbo-decode-token-threshold", Kind: Int, Default: "32", Span: Span{Since: v0110}, Doc: "DBO decode threshold", Source: srcFacts + "; unverified"},
	{Name: "dbo-prefill-token-threshold", Kind: Int, Default: "512", Span: Span{Since: v0110}, Doc: "DBO prefill threshold", Source: srcFacts + "; unverified"},
	{Name: "expert-placement-strategy", Kind: String, Choices: []string{"linear", "round_robin"}, Default: "linear", Span: Span{Since: v0110},
		Doc: "how logical experts map to EP ranks", Source: srcPar0112 + " (ExpertPlacementStrategy Literal); " + srcPar012 + "; " + srcFAIn0110 + "; PR #23745 merged 2025-09-16, after the 0.10.2 release (0.10.2 not read, unverified)"},
	{Name: "enable-elastic-ep", Kind: Bool, Default: "False", Span: Span{Since: v0170},
		Doc: "elastic EP (needs EPLB, PP=1, one API server)", Source: srcTagRead("v0.16.0 (absent) and v0.17.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcDump + "; " + "PR #34861 (merged 2026-02-28); absent at " + srcFA016 + "; " + srcFAIn019},
	{Name: "enable-ep-weight-filter", Kind: Bool, Default: "False", Span: Span{Since: v0180},
		Doc: "load only local experts' weights", Source: srcTagRead("v0.17.1 (absent) and v0.18.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcDump + "; " + "PR #37351 (merged 2026-03-18); absent at " + srcFA016 + "; " + srcFAIn019},
	{Name: "distributed-executor-backend", Kind: String, Choices: execBackends05, Span: Span{Since: vPre, Removed: v070},
		Doc:      "executor for TP/PP workers within an engine; unset = mp on one node, Ray when the world exceeds the node (see Release.Executor)",
		Verified: true, Source: srcExecBackendTags + "; " + srcUsage050 + ", " + srcUsage063 + ", " + srcUsage066 + " ({ray,mp})"},
	// From 0.10.2 argparse takes any string (the field is str |
	// DistributedExecutorBackend | type[Executor], metavar): the four names
	// or the qualified name of an Executor subclass (Executor.get_class,
	// resolve_obj_by_qualname). vlaunch keeps the four names (choices45: a
	// qualified class name is refused here, a known gap).
	{Name: "distributed-executor-backend", Kind: String, Choices: execBackends, Span: Span{Since: v070},
		Doc:      "executor for TP/PP workers within an engine; unset = auto (see Release.Executor)",
		Verified: true, Source: srcExecBackendTags + "; " + srcUsage081 + " ({ray,mp,uni,external_launcher}); " + srcPar0101 + "; " + srcPar0112},
	{Name: "nnodes", Aliases: []string{"-n"}, Kind: Int, Default: "1", Span: Span{Since: v0111},
		Doc: "mp multi-node for one engine spanning nodes (PR #23691)", Source: srcNnodes},
	{Name: "node-rank", Aliases: []string{"-r"}, Kind: Int, Default: "0", Span: Span{Since: v0111},
		Doc: "this node's rank with --nnodes; rank > 0 also needs --headless", Source: srcNnodes},
	{Name: "master-addr", Kind: String, Default: "127.0.0.1", Span: Span{Since: v0111}, Doc: "address of node rank 0 with --nnodes", Source: srcNnodes},
	{Name: "master-port", Kind: Int, Default: "29501", Span: Span{Since: v0111}, Doc: "torch.distributed port with --nnodes", Source: srcNnodes},
	{Name: "decode-context-parallel-size", Aliases: []string{"-dcp"}, Kind: Int, Default: "1", Span: dcpSpan,
		Doc: "decode context parallel (TP divisible by DCP; see Release.DCP)", Verified: true, Source: srcFacts + "; " + srcDCP + "; " + srcDCPAlias},
	{Name: "prefill-context-parallel-size", Aliases: []string{"-pcp"}, Kind: Int, Default: "1", Span: Span{Since: v0120},
		Doc: "prefill context parallel", Source: srcTagRead("v0.11.2 (absent) and v0.12.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release unverified"},
	{Name: "disable-custom-all-reduce", Kind: StoreTrue, Default: "False", Span: Span{Since: vPre, Removed: v084},
		Doc:    "disable vLLM's custom intra-node all-reduce (store_true in the old synopses; --no- form only once it became BooleanOptionalAction)",
		Source: srcTagRead("v0.8.3 (store_true, no --no-disable-custom-all-reduce) and v0.8.4 (BooleanOptionalAction, --no-disable-custom-all-reduce)", "vllm/engine/arg_utils.py") + "; " + srcUsagePre05 + "; NVIDIA-NeMo/Evaluator PR #709 (0.15.1 Ray example); kind change unverified"},
	{Name: "disable-custom-all-reduce", Kind: Bool, Default: "False", Span: Span{Since: v084},
		Doc:    "disable vLLM's custom intra-node all-reduce (store_true in the old synopses; --no- form only once it became BooleanOptionalAction)",
		Source: srcTagRead("v0.8.3 (store_true, no --no-disable-custom-all-reduce) and v0.8.4 (BooleanOptionalAction, --no-disable-custom-all-reduce)", "vllm/engine/arg_utils.py") + "; " + srcUsagePre05 + "; NVIDIA-NeMo/Evaluator PR #709 (0.15.1 Ray example); kind change unverified"},
	{Name: "disable-nccl-for-dp-synchronization", Kind: Bool, Span: Span{Since: v0111},
		Doc: "use Gloo for the per-step DP sync", Source: srcTagRead("v0.11.0 (absent) and v0.11.1 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts + " (\"Newest\", in its v0.22.1 flag table); " + "PR #25768 (merged 2025-10-07); absent at " + srcFA0110 + "; " + srcFAIn016},

	// --- memory / scheduler (§1.3) ---
	// The default moved from 0.9 to 0.92 with PR #38284 (which also turned
	// CUDA-graph memory profiling on): 0.9 at the v0.19.1 tag, 0.92 at v0.20.0.
	{Name: "gpu-memory-utilization", Kind: Float, Default: "0.9", Span: Span{Since: vPre, Removed: v0200},
		Doc:    "fraction of total GPU memory this instance may use (per GPU)",
		Source: srcUsagePre05 + "; " + srcCacheLit + " (0.9 through 0.16.0); " + srcGraphMemTags + "; the pre-table start is from the stale usage only, unverified"},
	{Name: "gpu-memory-utilization", Kind: Float, Default: "0.92", Span: Span{Since: v0200}, Verified: true,
		Doc: "fraction of total GPU memory this instance may use (per GPU)", Source: srcCache + "; " + srcGraphMemTags},
	{Name: "kv-cache-memory-bytes", Kind: HumanInt, Span: Span{Since: v0102},
		Doc: "fixed KV-cache bytes per GPU (overrides utilization for KV sizing)", Source: srcTagRead("v0.10.1 (absent) and v0.10.2 (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + " (≈0.11.1); unverified" + "; " + srcFAKVBytes},
	{Name: "max-model-len", Kind: HumanInt, Span: Span{Since: vPre},
		Doc: "context length; human-readable values (1k, 2M) since ≈0.10, -1/auto in newer", Verified: true, Source: srcOld},
	{Name: "max-num-seqs", Kind: Int, Span: Span{Since: vPre}, Doc: "max concurrent sequences per DP rank", Verified: true, Source: srcUsagePre05 + "; " + srcDump},
	{Name: "max-num-batched-tokens", Kind: HumanInt, Span: Span{Since: vPre}, Doc: "token budget per step per DP rank", Verified: true, Source: srcUsagePre05 + "; " + srcDump},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes050, Default: "auto", Span: Span{Since: vPre, Removed: v0100},
		Doc: "KV cache storage type", Verified: true,
		Source: srcUsage050 + ", " + srcUsage063 + ", " + srcUsage066 + ", " + srcUsage081 + " ({auto,fp8,fp8_e5m2,fp8_e4m3}); " + srcConfig09 + "; fp8_inc first in 0.10.0 (below)"},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes0100, Default: "auto", Span: Span{Since: v0100, Removed: v0110},
		Doc: "KV cache storage type", Verified: true, Source: srcKVDTypeTags + "; docs.vllm.ai/en/v0.10.0/api/vllm/config (CacheDType); " + srcCacheLit + " (0.10.2)"},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes0110, Default: "auto", Span: Span{Since: v0110, Removed: v0111},
		Doc: "KV cache storage type (bfloat16 added)", Verified: true, Source: srcKVDTypeTags},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes0111, Default: "auto", Span: Span{Since: v0111, Removed: v0180},
		Doc:      "KV cache storage type (fp8_ds_mla added: DeepSeek-V3.2's sparse MLA format)",
		Verified: true, Source: srcKVDTypeTags + "; " + srcCacheLit + " (0.11.1 and 0.16.0)"},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes0180, Default: "auto", Span: Span{Since: v0180, Removed: v0200},
		Doc: "KV cache storage type (float16 added)", Verified: true, Source: srcKVDTypeTags},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes0220, Default: "auto", Span: Span{Since: v0200, Removed: v0250},
		Doc:      "KV cache storage type (per-token-head, nvfp4 and the turboquant_* presets, TurboQuant KV-cache quantization, from 0.20.0)",
		Verified: true, Source: srcKVDTypeTags + "; " + srcDump + "; turboquant presets: " + srcTurboQuant},
	{Name: "kv-cache-dtype", Kind: String, Choices: kvDTypes0230, Default: "auto", Span: Span{Since: v0250, Confirmed: v0280},
		Doc:    "KV cache storage type (adds int4_per_token_head and nvfp4_4over6; absent at the v0.24.0 tag, the first release with them, 0.25-0.28, is unverified)",
		Source: srcKVDTypeTags + "; " + srcKVDTypes028 + "; turboquant presets: " + srcTurboQuant},
	// block-size: choices pinned per release by the tags (tools/flagspans/choices.py,
	// tag_choices_table.go): 0.5.5 and 0.6.4/0.6.6 widened them, 0.6.0 and 0.6.5
	// narrowed them back, 1 came with 0.8.5 and 256 with 0.11.1 (choices45).
	{Name: "block-size", Kind: Int, Choices: blockSizes05, Span: Span{Since: vPre, Removed: v055},
		Doc: "tokens per KV block", Verified: true, Source: srcBlockSizeTags + "; " + srcUsagePre05},
	{Name: "block-size", Kind: Int, Choices: blockSizes055, Span: Span{Since: v055, Removed: v060},
		Doc: "tokens per KV block", Verified: true, Source: srcBlockSizeTags},
	{Name: "block-size", Kind: Int, Choices: blockSizes05, Span: Span{Since: v060, Removed: v064},
		Doc: "tokens per KV block", Verified: true, Source: srcBlockSizeTags + "; " + srcUsage063},
	{Name: "block-size", Kind: Int, Choices: blockSizes064, Span: Span{Since: v064, Removed: v065},
		Doc: "tokens per KV block", Verified: true, Source: srcBlockSizeTags},
	{Name: "block-size", Kind: Int, Choices: blockSizes05, Span: Span{Since: v065, Removed: v066},
		Doc: "tokens per KV block", Verified: true, Source: srcBlockSizeTags},
	{Name: "block-size", Kind: Int, Choices: blockSizes064, Span: Span{Since: v066, Removed: v085},
		Doc: "tokens per KV block", Verified: true, Source: srcBlockSizeTags},
	{Name: "block-size", Kind: Int, Choices: blockSizes085, Span: Span{Since: v085, Removed: v0111},
		Doc: "tokens per KV block; MLA backends override it (see MLABlockSize)", Verified: true, Source: srcBlockSizeTags + "; " + srcConfig09 + "; " + srcCacheLit + " (0.10.2)"},
	{Name: "block-size", Kind: Int, Choices: blockSizes0111, Span: Span{Since: v0111, Removed: v0180},
		Doc: "tokens per KV block; MLA backends override it (see MLABlockSize)", Verified: true, Source: srcBlockSizeTags + "; " + srcCacheLit + " (0.11.1 and 0.16.0 add 256)"},
	{Name: "block-size", Kind: Int, Span: Span{Since: v0180}, Doc: "tokens per KV block (free int; MLA backends override it)",
		Verified: true, Source: srcBlockSizeTags + "; " + srcDump + "; docs.vllm.ai/en/v{0.26.0,0.29.0}/api/vllm/config/cache (int field)"},
	{Name: "enable-prefix-caching", Kind: StoreTrue, Span: Span{Since: vPre, Removed: v065},
		Doc: "prefix caching (V1 default on); store_true in the old synopses", Source: srcTagRead("v0.6.4 (store_true, no --no-enable-prefix-caching) and v0.6.5 (BooleanOptionalAction, --no-enable-prefix-caching)", "vllm/engine/arg_utils.py") + "; " + srcUsagePre05 + "; " + srcUsage063 + "; kind change pinned at the tags (flagspans45); first release (before 0.5.3) not read"},
	{Name: "enable-prefix-caching", Kind: Bool, Span: Span{Since: v065},
		Doc: "prefix caching (V1 default on); store_true in the old synopses", Source: srcTagRead("v0.6.4 (store_true, no --no-enable-prefix-caching) and v0.6.5 (BooleanOptionalAction, --no-enable-prefix-caching)", "vllm/engine/arg_utils.py") + "; " + srcUsagePre05 + "; " + srcUsage063 + "; kind change pinned at the tags (flagspans45); first release (before 0.5.3) not read"},
	{Name: "enable-chunked-prefill", Kind: StoreTrue, Span: Span{Since: vPre, Removed: v085}, Doc: "chunked prefill (V1 always on)", Verified: true, Source: srcTagRead("v0.8.4 (store_true, no --no-enable-chunked-prefill) and v0.8.5 (BooleanOptionalAction, --no-enable-chunked-prefill)", "vllm/engine/arg_utils.py") + "; " + srcChunkedPrefill},
	{Name: "enable-chunked-prefill", Kind: Bool, Span: Span{Since: v085}, Doc: "chunked prefill (V1 always on)", Verified: true, Source: srcTagRead("v0.8.4 (store_true, no --no-enable-chunked-prefill) and v0.8.5 (BooleanOptionalAction, --no-enable-chunked-prefill)", "vllm/engine/arg_utils.py") + "; " + srcChunkedPrefill},
	{Name: "num-gpu-blocks-override", Kind: Int, Span: Span{Since: vPre}, Doc: "testing: force KV block count", Verified: true, Source: srcUsagePre05 + "; " + srcDump},
	{Name: "swap-space", Kind: Float, Default: "4", Span: Span{Since: vPre, Removed: v0180},
		Doc: "CPU swap space per GPU (GiB); removed in 0.18.0", Verified: true, Source: srcUsagePre05 + "; " + srcSwapPR},
	{Name: "cpu-offload-gb", Kind: Float, Default: "0", Span: Span{Since: vPre}, Doc: "offload weights to CPU", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "async-scheduling", Kind: Bool, Span: Span{Since: v0100},
		Doc: "asynchronous scheduling; first release and default-on release unverified", Source: srcTagRead("v0.9.2 (absent) and v0.10.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release unverified"},

	// --- model / numerics / compile / speculative (§1.4) ---
	{Name: "model", Kind: String, Span: Span{Since: vPre}, Doc: "model (prefer the positional form)", Verified: true, Source: srcOld},
	{Name: "tokenizer", Kind: String, Span: Span{Since: vPre}, Doc: "tokenizer name or path", Verified: true, Source: srcOld},
	{Name: "revision", Kind: String, Span: Span{Since: vPre}, Doc: "model revision", Verified: true, Source: srcOld},
	{Name: "download-dir", Kind: String, Span: Span{Since: vPre}, Doc: "weights download directory", Verified: true, Source: srcOld},
	{Name: "load-format", Kind: String, Default: "auto", Span: Span{Since: vPre}, Doc: "weights format (names grow every release, values not checked)", Verified: true, Source: srcOld},
	{Name: "config", Kind: String, Span: Span{Since: v060}, Doc: "YAML file of flags (long names without dashes)",
		Source: srcTagRead("v0.5.5 (absent) and v0.6.0 (present)", "vllm/scripts.py") + "; " + srcNS061 + " (config=''); " + srcDump + "; 0.5.3-0.6.0 unverified"},
	{Name: "seed", Kind: Int, Span: Span{Since: vPre}, Doc: "random seed", Verified: true, Source: srcUsagePre05 + "; " + srcDump},
	{Name: "quantization", Aliases: []string{"-q"}, Kind: String, Span: Span{Since: vPre},
		Doc: "weights quantization; auto-detected from the checkpoint", Verified: true, Source: srcUsagePre05 + "; " + srcDump + " (-q alias)"},
	{Name: "dtype", Kind: String, Choices: dtypes, Default: "auto", Span: Span{Since: vPre}, Doc: "model dtype", Verified: true, Source: srcOld},
	{Name: "trust-remote-code", Kind: StoreTrue, Default: "False", Span: Span{Since: vPre, Removed: v090},
		Doc: "trust model code from the hub (store_true in the old synopses; --no- form only once BooleanOptionalAction)", Source: srcTagRead("v0.8.5 (store_true, no --no-trust-remote-code) and v0.9.0 (BooleanOptionalAction, --no-trust-remote-code)", "vllm/engine/arg_utils.py") + "; " + srcOld + "; kind change pinned at the tags (flagspans45); first release (before 0.5.3) not read"},
	{Name: "trust-remote-code", Kind: Bool, Default: "False", Span: Span{Since: v090},
		Doc: "trust model code from the hub (store_true in the old synopses; --no- form only once BooleanOptionalAction)", Source: srcTagRead("v0.8.5 (store_true, no --no-trust-remote-code) and v0.9.0 (BooleanOptionalAction, --no-trust-remote-code)", "vllm/engine/arg_utils.py") + "; " + srcOld + "; kind change pinned at the tags (flagspans45); first release (before 0.5.3) not read"},
	{Name: "served-model-name", Kind: StringList, Span: Span{Since: vPre}, Doc: "names exposed by the API", Source: srcServedModelName},
	{Name: "hf-overrides", Kind: JSON, Span: Span{Since: v064}, Doc: "overrides for the HF config", Source: srcTagRead("v0.6.3 (absent) and v0.6.4 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "enforce-eager", Kind: StoreTrue, Default: "False", Span: Span{Since: vPre, Removed: v090}, Doc: "disable CUDA graphs (store_true in the old synopses)",
		Source: srcTagRead("v0.8.5 (store_true, no --no-enforce-eager) and v0.9.0 (BooleanOptionalAction, --no-enforce-eager)", "vllm/engine/arg_utils.py") + "; " + srcUsagePre05 + "; " + srcDump + "; kind change pinned at the tags (flagspans45); first release (before 0.5.3) not read"},
	{Name: "enforce-eager", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "disable CUDA graphs (store_true in the old synopses)",
		Source: srcTagRead("v0.8.5 (store_true, no --no-enforce-eager) and v0.9.0 (BooleanOptionalAction, --no-enforce-eager)", "vllm/engine/arg_utils.py") + "; " + srcUsagePre05 + "; " + srcDump + "; kind change pinned at the tags (flagspans45); first release (before 0.5.3) not read"},
	{Name: "compilation-config", Aliases: []string{"-O"}, Kind: JSON, Span: Span{Since: v065, Removed: v0120},
		Doc: "compilation config JSON or level; -O is its alias up to 0.11.x", Source: srcTagRead("v0.6.4 (absent) and v0.6.5 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "compilation-config", Aliases: []string{"-cc"}, Kind: JSON, Span: Span{Since: v0120},
		Doc: "compilation config JSON; alias -cc from 0.12.0", Source: srcOptLvl + "; absence in 0.11.2 not read"},
	{Name: "optimization-level", Aliases: []string{"-O"}, Kind: Int, Choices: []string{"0", "1", "2", "3"}, Default: "2", Span: Span{Since: v0120},
		Doc: "preset bundles -O0..-O3", Source: srcOptLvl + "; absence in 0.11.2 not read"},
	{Name: "cuda-graph-sizes", Kind: StringList, Span: Span{Since: v090, Removed: v0130}, Deprecated: v0110,
		Doc: "CUDA graph capture sizes; deprecated for --cudagraph-capture-sizes, 'removed in v0.13.0'", Source: srcTagRead("v0.8.5 (absent) and v0.9.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "cudagraph-capture-sizes", Kind: StringList, Span: Span{Since: v0111},
		Doc: "CUDA graph capture sizes", Source: srcFacts + "; first release unverified"},
	{Name: "max-cudagraph-capture-size", Kind: Int, Span: Span{Since: v0111},
		Doc: "largest CUDA graph batch", Source: srcFacts + "; first release unverified"},
	{Name: "speculative-config", Kind: JSON, Span: Span{Since: v082, Removed: v0190},
		Doc:    "speculative decoding JSON (see SpeculativeMethods)",
		Source: srcTagRead("v0.18.1 (no -sc alias) and v0.19.0 (-sc alias)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.8.1 (absent) and v0.8.2 (present)", "vllm/engine/arg_utils.py") + "; " + srcSpec064 + " (the old flags); " + srcSpec082 + "; 0.7.x-0.8.1 unverified; -sc alias from the 0.22.1 dump"},
	{Name: "speculative-config", Aliases: []string{"-sc"}, Kind: JSON, Span: Span{Since: v0190},
		Doc:    "speculative decoding JSON (see SpeculativeMethods)",
		Source: srcTagRead("v0.18.1 (no -sc alias) and v0.19.0 (-sc alias)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.8.1 (absent) and v0.8.2 (present)", "vllm/engine/arg_utils.py") + "; " + srcSpec064 + " (the old flags); " + srcSpec082 + "; 0.7.x-0.8.1 unverified; -sc alias from the 0.22.1 dump"},
	{Name: "kv-transfer-config", Kind: JSON, Span: Span{Since: v065}, Doc: "P/D disaggregation connector", Source: srcTagRead("v0.6.4 (absent) and v0.6.5 (present)", "vllm/engine/arg_utils.py") + "; " + srcKVTransferFlag},
	{Name: "attention-backend", Kind: String, Span: Span{Since: v0130},
		Doc: "force an attention backend (replaces VLLM_ATTENTION_BACKEND)", Source: srcTagRead("v0.12.0 (absent) and v0.13.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; " + srcAttnFlags + "; issue #50292 (0.26.0: EngineArgs.attention_backend); 0.12.0-0.25.x unverified" + "; " + srcFAIn016},
	{Name: "attention-config", Aliases: []string{"-ac"}, Kind: JSON, Span: Span{Since: v0130},
		Doc: "attention config JSON", Source: srcTagRead("v0.12.0 (absent) and v0.13.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcDump + "; " + srcAttnFlags + "; EuroEval/EuroEval #1488 (0.14.1 warns \"Please use --attention-config.backend\"); 0.12.0-0.14.0 unverified"},
	{Name: "moe-backend", Kind: String, Span: Span{Since: v0170},
		Doc: "expert GEMM kernel (auto, deep_gemm, triton, cutlass, flashinfer_*, marlin, ...)", Source: srcTagRead("v0.16.0 (absent) and v0.17.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcDump + "; " + "PR #33807 (merged 2026-02-25); absent at " + srcFA016 + "; " + srcFAIn019},
	{Name: "performance-mode", Kind: String, Choices: []string{"balanced", "interactivity", "throughput"}, Span: Span{Since: v0170},
		Doc: "preset", Source: srcTagRead("v0.16.0 (absent) and v0.17.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcDump + "; " + "PR #34936 (merged 2026-02-25); absent at " + srcFA016 + "; " + srcFAIn019},
	{Name: "spec-method", Kind: String, Span: Span{Since: v0220}, Doc: "speculative method shorthand", Source: srcTagRead("v0.21.0 (absent) and v0.22.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcDump + "; " + srcFANotIn019},
	{Name: "spec-tokens", Kind: Int, Span: Span{Since: v0220}, Doc: "speculative tokens shorthand", Source: srcTagRead("v0.21.0 (absent) and v0.22.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcDump + "; " + srcFANotIn019},

	// --- server / logging ---
	{Name: "host", Kind: String, Span: Span{Since: vPre}, Doc: "API bind address (unset = all interfaces)", Verified: true, Source: srcHostPort},
	{Name: "port", Kind: Int, Default: "8000", Span: Span{Since: vPre}, Doc: "API port", Verified: true, Source: srcHostPort},
	{Name: "api-key", Kind: StringList, Span: Span{Since: vPre}, Doc: "API keys (prefer VLLM_API_KEY from the environment)",
		Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcNS061 + "; " + srcBoth + "; " + srcFront014 + "; 0.5.3-0.6.0 unverified"},
	{Name: "uvicorn-log-level", Kind: String, Choices: uvicornLogLevels, Default: "info", Span: Span{Since: vPre}, Doc: "uvicorn log level",
		Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcNS061 + " (default info); choices read in " + srcServe012 + ", " + srcFront014 + "; 0.5.3-0.6.0 unverified"},
	{Name: "disable-log-stats", Kind: StoreTrue, Span: Span{Since: vPre}, Doc: "no periodic stats logging", Verified: true,
		Source: srcUsagePre05 + "; " + srcDump + "; " + srcServe012},
	{Name: "aggregate-engine-logging", Kind: StoreTrue, Span: Span{Since: v0111},
		Doc: "one aggregate log line instead of per-DP-engine stats", Source: srcDump + "; first release unverified"},
	{Name: "enable-auto-tool-choice", Kind: StoreTrue, Default: "False", Span: Span{Since: v060, Removed: v0100},
		Doc: "automatic tool choice; requires --tool-call-parser (store_true before FrontendArgs became a dataclass)", Source: srcTagRead("v0.9.2 (store_true, no --no-enable-auto-tool-choice) and v0.10.0 (BooleanOptionalAction, --no-enable-auto-tool-choice)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.5.5 (absent) and v0.6.0 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcNS061 + "; " + srcBoth + "; 0.5.3-0.6.0 unverified"},
	{Name: "enable-auto-tool-choice", Kind: Bool, Default: "False", Span: Span{Since: v0100},
		Doc: "automatic tool choice; requires --tool-call-parser (store_true before FrontendArgs became a dataclass)", Source: srcTagRead("v0.9.2 (store_true, no --no-enable-auto-tool-choice) and v0.10.0 (BooleanOptionalAction, --no-enable-auto-tool-choice)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.5.5 (absent) and v0.6.0 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcNS061 + "; " + srcBoth + "; 0.5.3-0.6.0 unverified"},
	{Name: "tool-call-parser", Kind: String, Span: Span{Since: v060},
		Doc: "tool call parser (built-in names grow every release and plugins add more, so values are not checked)", Source: srcTagRead("v0.5.5 (absent) and v0.6.0 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcNS061 + "; " + srcBoth + "; 0.5.3-0.6.0 unverified"},
	{Name: "reasoning-parser", Kind: String, Span: Span{Since: mustVersion("0.7.1")},
		Doc: "reasoning parser (replaces --enable-reasoning; names grow every release, values not checked)", Source: srcTagRead("v0.7.0 (absent) and v0.7.1 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcUsage085 + " ({deepseek_r1,granite}); issue #27389 argparse dump; earlier releases unverified"},
	{Name: "chat-template", Kind: String, Span: Span{Since: vPre}, Doc: "chat template file or inline template", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcNS061 + "; " + srcBoth + "; 0.5.3-0.6.0 unverified"},
}

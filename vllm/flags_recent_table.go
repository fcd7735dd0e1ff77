package vllm

// Flags real 2026 launch configurations use (lint/testdata/corpus/real) that
// the tables lacked, so lint said VL005 ("not in vlaunch's table") for them
// (issue #23). Each entry's Since is the earliest release the evidence
// allows: a release cut before the PR that added the flag was even opened
// cannot have it; where no such bound was found Since is vPre ("unknown
// before Confirmed", which lint reports as an info, never an error).
// Confirmed is the first release a cited source shows the flag in.

// srcTag028 is the v0.28.0 tag's EngineArgs, read in a third-party checkout
// of the tag (the same checkout srcKVDTypes028 reads).
const srcTag028 = "vllm/engine/arg_utils.py EngineArgs.add_cli_args at the v0.28.0 tag 2cf0a6915ce5 (third-party checkout bb-2020-bb/vllm-v0.28.0-cu130-HyQuant@06e9c24a)"

// srcMain1011 is a stored main-branch EngineArgs of the 0.10.2/0.11.0
// period (V0 fallback still present; --disable-log-requests "will be
// removed in v0.12.0"): a flag in it predates 0.12.0, but the commit is no
// release, so it pins no first release.
const srcMain1011 = "vllm-project/vllm vllm/engine/arg_utils.py@99d7eb5d6a51 (main, 0.10.2/0.11.0 period, not a release)"

// Release dates the lower bounds below rest on, each cited where the table
// already uses it: 0.11.0 released 2025-10-02 (srcDCPGQA); 0.11.1 out by
// 2025-11-19 (IBM/ado PR #223, facts_dcp.go); 0.11.2 cut before 2025-12-11
// (facts_dp_dummy.go: PR #30515); 0.16.0 released by 2026-02-26
// (ai-dynamo/dynamo PR #6614, facts_dp_dummy.go).
const (
	// srcAccessLogEndpoints: PR #30011 added the option (opened
	// 2025-12-04, after 0.11.1 was out); kserve PR #5507 (2026-05-07, a
	// third-party runtime check) reads "vLLM 0.16 introduced
	// --disable-access-log-for-endpoints" and selects it for vLLM >= 0.16.
	srcAccessLogEndpoints = "PR #30011 ([feat][log] add --disable-access-log-for-endpoints, opened 2025-12-04; 0.11.1 out by 2025-11-19, so not before 0.11.2); " +
		"kserve/kserve PR #5507 (third-party: \"vLLM 0.16 introduced --disable-access-log-for-endpoints\", used for vLLM >= 0.16); " +
		"docs.vllm.ai/en/v0.23.0/api/vllm/logging_utils/access_log_filter (UvicornAccessLogFilter); 0.11.2-0.15.x unverified"
	// srcKVEvents: KVEventsConfig and --kv-events-config came with PR
	// #16750 (KV cache events over ZMQ; merged 2025-04-30 as 0be6d05b5;
	// ai-dynamo/dynamo PR #1181, 2025-05-23, builds on it). A v0.8.5 tag
	// existed by 2025-04-29 (issue #17410: "after upgraded vLLM to v0.8.5",
	// a build 0.8.6.dev22+gec44935b0 logged that day), so 0.8.5 cannot
	// have it; the v0.9.0 tag has it.
	srcKVEvents = "PR #16750 ([V1][Metrics] add support for kv event publishing, merged 2025-04-30 as 0be6d05b5: --kv-events-config); " +
		"absent at " + srcTag084 + "; issue #17410 (a v0.8.5 tag existed by 2025-04-29: build 0.8.6.dev22+gec44935b0 \"after upgraded vLLM to v0.8.5\"), so not in 0.8.5; " +
		"present at " + srcTag090 + ", " + srcTag0110 + ", " + srcTag028 + "; ai-dynamo/dynamo PR #1181 (2025-05-23) builds on it; kaito-project/kaito PR #1890 (2026-03, injects --kv-events-config)"
	// srcDistTimeout: PR #36047 (opened 2026-03-04, after 0.16.0 was out)
	// added --distributed-timeout-seconds; issue #45078 runs it on 0.20.2.
	srcDistTimeout = "PR #36047 ([Feature] Add --distributed-timeout-seconds, opened 2026-03-04; 0.16.0 released by 2026-02-26, so not before 0.17.0); " +
		"issue #45078 (vLLM 0.20.2: --distributed-timeout-seconds parsed, not propagated to the NCCL TP group); " + srcFacts + " (v0.22.1 dump section); " +
		srcTag028 + "; 0.17.0-0.20.1 unverified"
	// srcChatTemplateKwargs: PR #31343 (opened 2025-12-25, after 0.11.2
	// was cut) added --default-chat-template-kwargs; a stored main
	// FrontendArgs of the 0.11/0.12 period lacks it. No release's parser
	// was read with it: 0.17.1's versioned API docs show its consumer,
	// ChatParams.with_defaults(default_chat_template_kwargs), the value the
	// flag feeds, so 0.17.1 is where it is first seen (indirectly).
	srcChatTemplateKwargs = "PR #31343 (feat(frontend): add --default-chat-template-kwargs, opened 2025-12-25; 0.11.2 cut before 2025-12-11, so not before 0.12.0); " +
		"vllm-project/vllm vllm/entrypoints/openai/cli_args.py@789340fbad95 (FrontendArgs of the 0.11/0.12 period, without it); " +
		"docs.vllm.ai/en/v0.17.1/api/vllm/renderers/params (ChatParams.with_defaults(default_chat_template_kwargs); also v0.22.1: the flag's consumer, the flag itself not read); " +
		"waybarrios/vllm-mlx issue #394 (2026-04-22: \"vllm has --default-chat-template-kwargs\"); 0.12.0-0.17.0 unverified"
	// srcEnableLogOutputs: PR #20707 added --enable-log-outputs; issue
	// #24578 starts vllm/vllm-openai:v0.10.1 with it (parsed; the bug is that
	// nothing was logged, fixed by PR #23634).
	srcEnableLogOutputs = "PR #20707 (add --enable-log-outputs, opened 2025-07-09); issue #24578 (vllm/vllm-openai:v0.10.1 started with --enable-log-outputs: parsed, outputs not logged, PR #23634); " +
		"vllm-project/vllm vllm/entrypoints/openai/cli_args.py@789340fbad95 (FrontendArgs.enable_log_outputs: bool, needs --enable-log-requests); earlier releases unverified"
	// srcStreamInterval: PR #27869 (opened 2025-10-31, after 0.11.0).
	srcStreamInterval = "PR #27869 ([Perf] Support stream interval, --stream-interval <tokens>, opened 2025-10-31; 0.11.0 released 2025-10-02, so not before 0.11.1); " +
		srcTag028 + " (SchedulerConfig.stream_interval); " + srcLlmdV4 + "; 0.11.1-0.22.0 unverified"
	// srcMambaCacheMode: PR #30877 (opened 2025-12-17) brought
	// --mamba-cache-mode align; vllm-ascend PR #7796 (2026-03-28) was
	// tested against vLLM v0.18.0 with --mamba-cache-mode align.
	srcMambaCacheMode = "PR #30877 ([V1][Hybrid] Mamba prefix caching with align mode: --mamba-cache-mode align, opened 2025-12-17; 0.11.2 cut before 2025-12-11, so not before 0.12.0); " +
		"vllm-project/vllm-ascend PR #7796 (2026-03-28, \"vLLM version: v0.18.0\", --enable-prefix-caching --mamba-cache-mode align; third-party); " + srcTag028 + "; 0.12.0-0.17.x unverified"
	// srcSafetensorsStrategy: PR #24469 (opened 2025-09-08).
	srcSafetensorsStrategy = "PR #24469 ([Core] add --safetensors-load-strategy, opened 2025-09-08, merged 2025-09-11 as 41329a0ff); present at " + srcTag0110 + " and " + srcTag028 +
		" (LoadConfig.safetensors_load_strategy); 0.10.2 (tagged off main after its rc tags) unverified, unknown before 0.11.0"
	// srcAdditionalConfig: a VllmConfig field platform plugins read
	// (vllm-ascend), added by PR #12432 (merged 2025-02-11 as 2e3b969ec):
	// not in the v0.7.2 tag, in the v0.7.3 tag.
	srcAdditionalConfig = "PR #12432 ([Platform] add pre_register_and_update function, merged 2025-02-11 as 2e3b969ec: --additional-config); absent at " + srcTag072 +
		"; present at " + srcTag073 + ", " + srcTag084 + ", " + srcTag090 + ", " + srcTag0110 + ", " + srcTag028 + "; " + srcMain1011 + " (EngineArgs.additional_config); " +
		"a vllm-ascend issue's launch on vLLM 0.11.0rc3 (lint corpus case ascend-dsv3-4node-oneline; third-party)"
	// srcHybridKVFlag: the switch existed on main before 0.12.0; its
	// --no- form is what PD configs use since connectors stopped forcing it
	// off (facts_pd.go hybridKVKept).
	srcHybridKVFlag = srcMain1011 + " (EngineArgs.disable_hybrid_kv_cache_manager, SchedulerConfig); " + srcTag028 + " (bool | None: --x / --no-x); " + srcLlmdV4 + " (--no-disable-hybrid-kv-cache-manager); first release unverified, unknown before 0.22.1"
	// srcLlmdV4: a published llm-d guide pinned to the vLLM 0.22.1 image
	// starts vllm serve with these flags (lint corpus case
	// llmd-wide-ep-deepseek-v4-pd, known-good): third-party evidence that
	// 0.22.1's parser accepts them.
	srcLlmdV4 = "llm-d/llm-d guides/wide-ep-lws/modelserver/gpu/vllm-deepseek-v4/base/{decode,prefill}.yaml@034b87dc5be6 (vLLM 0.22.1 image; third-party guide, lint corpus case llmd-wide-ep-deepseek-v4-pd)"
	// srcReasoningConfig: issue #42399 (2026-05-12) runs
	// vllm/vllm-openai:v0.20.1 with --reasoning-config on the docker line
	// and gets "vllm: error: unrecognized arguments: --reasoning-config":
	// 0.20.1 does not have it.
	srcReasoningConfig = "issue #42399 (vllm/vllm-openai:v0.20.1: \"unrecognized arguments: --reasoning-config\", so not before 0.20.2); " + srcTag028 +
		" (--reasoning-config, ReasoningConfig); 0.20.2-0.27.x unverified"
	// srcMMEncoderTPMode: PR #23190 (merged 2025-08-20 as 5efd6905b)
	// formalized --mm-encoder-tp-mode (it replaces
	// --enable-multimodal-encoder-data-parallel, which 0.11.0 maps to
	// "data"). The v0.10.2rc1 tag on main (5438967fb, 2025-09-01; builds
	// 0.10.2rc2.dev{0,26,75}) has it, but 0.10.2 itself was tagged off main
	// and not read.
	srcMMEncoderTPMode = "PR #23190 ([CLI][Doc] Formalize --mm-encoder-tp-mode, merged 2025-08-20 as 5efd6905b); in the v0.10.2rc1 tag 5438967fb (not a release; 0.10.2 not read); present at " +
		srcTag0110 + ", " + srcTag028 + "; issue QwenLM/Qwen3-VL #1492 (2025-09 README command with --mm-encoder-tp-mode data); unknown before 0.11.0"
	// srcTag028Only: flags read only in the 0.28.0 tag's EngineArgs.
	srcTag028Only = srcTag028 + "; first release unverified, unknown before 0.28.0"
	// srcConfigFormat: PR #8168 (merged 2024-09-07 as 29f49cd6e) added
	// --config-format. Until 0.6.1 vLLM's version lived in vllm/version.py:
	// the "Bump version to v0.6.0" commit (2024-09-04) lacks the flag and
	// "Bump version to v0.6.1" (2024-09-11) has it, so a 0.5.5 source (dated
	// before 0.6.0's bump) cannot have it, 0.6.0 may, 0.6.1 does.
	srcConfigFormat = "PR #8168 ([Model] Allow loading from original Mistral format, merged 2024-09-07 as 29f49cd6e: --config-format); " +
		"vllm/version.py bump commits: v0.6.0 32e7db253 (2024-09-04, without it), v0.6.1 3fd2b0d21 (2024-09-11, with it); present at " + srcTag0661 + ", " + srcTag073 + ", " + srcTag0110 + ", " + srcTag028 +
		"; vllm-project/vllm vllm/engine/arg_utils.py@001999d2f360 (main of the 0.7.0 period); 0.6.0 (its tag not read) unverified"
)

// v0202 is 0.20.2, the first release issue #45078 shows
// --distributed-timeout-seconds parsed in.
var v0202 = mustVersion("0.20.2")

// recentFlags are the flags of issue #23's VL005 list.
var recentFlags = []Flag{
	{Name: "disable-access-log-for-endpoints", Kind: String, Span: Span{Since: v0160},
		Doc: "comma-separated endpoint paths whose uvicorn access-log lines are dropped (e.g. /health,/metrics)", Source: srcTagRead("v0.15.1 (absent) and v0.16.0 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcAccessLogEndpoints},
	{Name: "kv-events-config", Kind: JSON, Span: Span{Since: v090}, Verified: true,
		Doc: "KV cache event publisher (ZMQ endpoint, topic, enable_kv_cache_events) for KV-aware routers", Source: srcKVEvents},
	{Name: "distributed-timeout-seconds", Kind: Int, Span: Span{Since: v0180},
		Doc: "torch.distributed init_process_group timeout in seconds (unset = PyTorch's default)", Source: srcTagRead("v0.17.1 (absent) and v0.18.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcDistTimeout + "; " + srcFAIn019},
	{Name: "default-chat-template-kwargs", Kind: JSON, Span: Span{Since: v0140},
		Doc: "server-wide default chat_template_kwargs (e.g. {\"enable_thinking\": false}); request kwargs override them", Source: srcTagRead("v0.13.0 (absent) and v0.14.0 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcChatTemplateKwargs + "; " + srcFAIn016},
	{Name: "enable-log-outputs", Kind: Bool, Default: "False", Span: Span{Since: v0101},
		Doc: "log generated outputs; requires --enable-log-requests", Source: srcTagRead("v0.10.0 (absent) and v0.10.1 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcEnableLogOutputs},
	{Name: "stream-interval", Kind: Int, Default: "1", Span: Span{Since: v0111},
		Doc: "tokens buffered per request before a streamed response is sent", Source: srcTagRead("v0.11.0 (absent) and v0.11.1 (present)", "vllm/engine/arg_utils.py") + "; " + srcStreamInterval + "; " + srcFAIn016},
	{Name: "safetensors-load-strategy", Kind: String, Span: Span{Since: v0102},
		Doc: "how safetensors files are read (lazy mmap or eager; values not checked)", Source: srcTagRead("v0.10.1 (absent) and v0.10.2 (present)", "vllm/engine/arg_utils.py") + "; " + srcSafetensorsStrategy},
	{Name: "additional-config", Kind: JSON, Span: Span{Since: v073}, Verified: true,
		Doc: "free-form JSON for platform plugins (vllm-ascend reads it)", Source: srcAdditionalConfig},
	{Name: "disable-hybrid-kv-cache-manager", Kind: Bool, Span: Span{Since: v091},
		Doc: "turn the hybrid KV cache manager off (--no- form keeps it on)", Source: srcTagRead("v0.9.0 (absent) and v0.9.1 (present)", "vllm/engine/arg_utils.py") + "; " + srcHybridKVFlag + "; " + srcFAIn0110},
	{Name: "config-format", Kind: String, Default: "auto", Span: Span{Since: v061},
		Doc: "format of the model config (auto, hf, mistral, ...; values not checked)", Source: srcTagRead("v0.6.0 (absent) and v0.6.1 (present)", "vllm/engine/arg_utils.py") + "; " + srcConfigFormat},
	{Name: "enable-mm-embeds", Kind: Bool, Default: "False", Span: Span{Since: v0111},
		Doc: "accept precomputed multimodal embeddings as input", Source: srcTagRead("v0.11.0 (absent) and v0.11.1 (present)", "vllm/engine/arg_utils.py") + "; " + srcTag028Only + "; " + "PR #27204 (merged 2025-10-22); absent at " + srcFA0110 + "; " + srcFAIn016},
	{Name: "enable-cumem-allocator", Kind: Bool, Span: Span{Since: v0220},
		Doc: "use the cumem allocator for model memory", Source: srcTagRead("v0.21.0 (absent) and v0.22.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcTag028 + "; " + srcLlmdV4 + "; first release unverified, unknown before 0.22.1"},
	{Name: "numa-bind", Kind: Bool, Default: "False", Span: Span{Since: v0200},
		Doc: "bind workers to the GPU's NUMA node", Source: srcTagRead("v0.19.1 (absent) and v0.20.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcTag028 + " (ParallelConfig.numa_bind); " + srcLlmdV4 + "; first release unverified, unknown before 0.22.1"},
	{Name: "reasoning-config", Kind: JSON, Span: Span{Since: v0190},
		Doc: "ReasoningConfig JSON (reasoning parser settings)", Source: srcTagRead("v0.18.1 (absent) and v0.19.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcReasoningConfig + "; " + srcFAReasoning},
}

func init() { flagTable = append(flagTable, recentFlags...) }

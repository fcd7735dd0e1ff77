package vllm

// Releases used only by the entries below. vPre stands for "some release
// before the table": flags removed before 0.9.0 are recorded with it as
// Since so that KnownFlagEver still finds them.
var (
	vPre  = mustVersion("0.1.0")
	v070  = mustVersion("0.7.0")
	v0170 = mustVersion("0.17.0")
)

// Sources for the engine flags below.
const (
	srcMultiStep = "PRs #22138 and #22779 (Aug 2025) removed multi-step scheduling and its CLI flags; 0.11.0 (V0 engine gone) is the safe bound, first release without them unverified"
	srcGuided    = "PR #22772 (--structured-outputs-config; guided fields deprecated ≈0.10.2); PR #29326 (Nov 2025): guided_* fields 'scheduled for removal in v0.12.0, which will be the next release'"
	srcEA085     = "docs.vllm.ai/en/v0.8.5/serving/engine_args usage (present before 0.9.0; later releases unverified)"
	srcSpecPR    = "added by PR #3706 (Apr 2024); removed by PR #15466 (merged end of Mar 2025, so in 0.8.3/0.8.4), before the table's 0.9.0"
	srcPre09     = "removed before 0.9.0 (the oldest release in the table); the removing release is unverified, 0.9.0 is the bound"
)

// modelFlags are engine (EngineArgs) flags real launch scripts use, and the
// removed ones they still carry.
var modelFlags = []Flag{
	{Name: "tokenizer-mode", Kind: String, Default: "auto", Span: Span{Since: v090},
		Doc: "tokenizer implementation (auto, slow, mistral, custom, ...; names grow, values not checked)", Verified: true, Source: srcNS085},
	{Name: "tokenizer-revision", Kind: String, Span: Span{Since: v090}, Doc: "tokenizer revision", Source: srcEA085},
	{Name: "code-revision", Kind: String, Span: Span{Since: v090}, Doc: "revision of the model code on the hub", Verified: true, Source: srcNS085},
	{Name: "hf-config-path", Kind: String, Span: Span{Since: v090}, Doc: "HF config path when it differs from the model", Verified: true, Source: srcNS085},
	{Name: "allowed-local-media-path", Kind: String, Span: Span{Since: v090},
		Doc: "directory API requests may read local media from (security risk)", Verified: true, Source: srcNS085},
	{Name: "skip-tokenizer-init", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "do not load a tokenizer", Source: srcEA085},
	{Name: "ignore-patterns", Kind: StringList, Span: Span{Since: v090}, Doc: "weight-file patterns to skip when loading", Source: srcFacts},
	{Name: "model-loader-extra-config", Kind: JSON, Span: Span{Since: v090}, Doc: "extra config for the model loader", Source: srcEA085},
	{Name: "max-parallel-loading-workers", Kind: Int, Span: Span{Since: v090},
		Doc: "load weights in batches to limit host RAM", Source: srcFacts},
	{Name: "ray-workers-use-nsight", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "profile Ray workers with Nsight", Source: srcFacts},
	{Name: "max-logprobs", Kind: Int, Default: "20", Span: Span{Since: v090}, Doc: "max logprobs a request may ask for", Source: srcFacts},
	{Name: "rope-scaling", Kind: JSON, Span: Span{Since: v090},
		Doc: "RoPE scaling JSON; newer releases route it through --hf-overrides (removal release unverified, so never reported as removed)", Source: srcFacts},
	{Name: "rope-theta", Kind: Float, Span: Span{Since: v090},
		Doc: "RoPE theta; newer releases route it through --hf-overrides (removal release unverified)", Source: srcFacts},
	{Name: "limit-mm-per-prompt", Kind: JSON, Span: Span{Since: v090},
		Doc: `max multimodal items per prompt, e.g. '{"image":4}' (older key=value form also seen)`, Source: srcFacts},
	{Name: "mm-processor-kwargs", Kind: JSON, Span: Span{Since: v090}, Doc: "overrides for the multimodal processor", Source: srcFacts},
	{Name: "generation-config", Kind: String, Default: "auto", Span: Span{Since: v090},
		Doc: "where default sampling params come from: auto (model's generation_config.json), vllm, or a folder", Source: srcFacts},
	{Name: "override-generation-config", Kind: JSON, Span: Span{Since: v090}, Doc: "overrides on top of --generation-config", Source: srcFacts},
	{Name: "logits-processor-pattern", Kind: String, Span: Span{Since: v090}, Doc: "regex of logits processors requests may name", Source: srcEA085},
	{Name: "logits-processors", Kind: StringList, Span: Span{Since: v090},
		Doc: "custom V1 logits processor classes (first release ≈0.10.x unverified; started at 0.9.0 so it is never reported as too new)", Source: srcFacts},
	{Name: "enable-sleep-mode", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "allow /sleep and /wake_up (frees GPU memory)", Source: srcFacts},
	{Name: "calculate-kv-scales", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "compute FP8 KV scales on the fly", Source: srcFacts},
	{Name: "otlp-traces-endpoint", Kind: String, Span: Span{Since: v090}, Doc: "OpenTelemetry traces endpoint", Source: srcFacts},
	{Name: "collect-detailed-traces", Kind: StringList, Span: Span{Since: v090}, Doc: "extra trace detail (model, worker, all)", Source: srcFacts},
	{Name: "scheduling-policy", Kind: String, Choices: []string{"fcfs", "priority"}, Default: "fcfs", Span: Span{Since: v090},
		Doc: "request scheduling order", Source: srcFacts},
	{Name: "preemption-mode", Kind: String, Span: Span{Since: v090}, Doc: "recompute or swap (V0 concept; removal release unverified)", Source: srcFacts},
	{Name: "long-prefill-token-threshold", Kind: Int, Default: "0", Span: Span{Since: v090}, Doc: "a prefill longer than this counts as long", Source: srcFacts},
	{Name: "max-num-partial-prefills", Kind: Int, Default: "1", Span: Span{Since: v090}, Doc: "concurrent partial prefills", Source: srcFacts},
	{Name: "max-long-partial-prefills", Kind: Int, Default: "1", Span: Span{Since: v090}, Doc: "concurrent long partial prefills", Source: srcFacts},

	// --- LoRA ---
	{Name: "enable-lora", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "serve LoRA adapters", Source: srcFacts},
	{Name: "max-loras", Kind: Int, Default: "1", Span: Span{Since: v090}, Doc: "LoRAs in one batch", Source: srcFacts},
	{Name: "max-lora-rank", Kind: Int, Default: "16", Span: Span{Since: v090}, Doc: "max LoRA rank (a fixed set of ranks in newer releases)", Source: srcFacts},
	{Name: "max-cpu-loras", Kind: Int, Span: Span{Since: v090}, Doc: "LoRAs cached in CPU memory", Source: srcFacts},
	{Name: "fully-sharded-loras", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "shard all LoRA computation over TP", Source: srcFacts},
	{Name: "lora-dtype", Kind: String, Choices: []string{"auto", "float16", "bfloat16"}, Default: "auto", Span: Span{Since: v090},
		Doc: "LoRA dtype", Source: srcFacts},

	// --- structured outputs ---
	{Name: "guided-decoding-backend", Kind: String, Span: Span{Since: v090, Removed: v0120}, Deprecated: v0102,
		Doc: "replaced by --structured-outputs-config.backend (or '{\"backend\": ...}')", Source: srcGuided},
	{Name: "structured-outputs-config", Kind: JSON, Span: Span{Since: v0102},
		Doc: "structured outputs settings (backend, ...); replaces --guided-decoding-*", Source: srcGuided + "; first release ≈0.10.2 (unverified)"},

	// --- removed with the V0 engine ---
	{Name: "max-seq-len-to-capture", Kind: Int, Default: "8192", Span: Span{Since: v090, Removed: v0110},
		Doc:    "CUDA graph coverage (V0); removed by PR #25543, use --max-cudagraph-capture-size / compilation config",
		Source: "PR #25543 (Sep 2025); NVIDIA-NeMo/Curator PR #1200 drops it for 0.11.0"},
	{Name: "num-scheduler-steps", Kind: Int, Default: "1", Span: Span{Since: v090, Removed: v0110},
		Doc: "multi-step scheduling (V0 only); removed, drop the flag", Source: srcMultiStep},
	{Name: "multi-step-stream-outputs", Kind: Bool, Span: Span{Since: v090, Removed: v0110},
		Doc: "multi-step streaming (V0 only); removed, drop the flag", Source: srcMultiStep},

	// --- removed before the table starts ---
	{Name: "speculative-model", Kind: String, Span: Span{Since: vPre, Removed: v090},
		Doc: `use --speculative-config '{"model": ..., "num_speculative_tokens": N}'`, Source: srcSpecPR},
	{Name: "num-speculative-tokens", Kind: Int, Span: Span{Since: vPre, Removed: v090},
		Doc: `use --speculative-config '{"num_speculative_tokens": N, ...}'`, Source: srcSpecPR},
	{Name: "use-v2-block-manager", Kind: StoreTrue, Span: Span{Since: vPre, Removed: v090},
		Doc: "no-op since block manager v1 was removed (PR #8704); drop the flag", Source: srcPre09 + "; PR #13492 (Feb 2025) removed dangling references"},
	{Name: "worker-use-ray", Kind: StoreTrue, Span: Span{Since: vPre, Removed: v070},
		Doc: "use --distributed-executor-backend ray", Source: "in the 0.6.6.post1 engine-args usage, not in 0.8.1's; deprecated since 0.4.3; gone in 0.7.0 (vLLM PR #12383; OpenRLHF PR #702, EleutherAI/lm-evaluation-harness #2706)"},
	{Name: "engine-use-ray", Kind: StoreTrue, Span: Span{Since: vPre, Removed: v090},
		Doc: "the engine no longer runs as a Ray actor; drop the flag", Source: srcPre09},
}

func init() { flagTable = append(flagTable, modelFlags...) }

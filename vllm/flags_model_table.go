package vllm

// Sources for the engine flags below.
const (
	srcMultiStep = "PRs #22138 and #22779 (Aug 2025) removed multi-step scheduling and its CLI flags; 0.11.0 (V0 engine gone) is the safe bound, first release without them unverified"
	srcGuided    = "PR #22772 (--structured-outputs-config; guided fields deprecated ≈0.10.2); PR #29326 (Nov 2025): guided_* fields 'scheduled for removal in v0.12.0, which will be the next release'"
	srcEA085     = "docs.vllm.ai/en/v0.8.5/serving/engine_args usage"
	srcSpecPR    = "added by PR #3706 (Apr 2024); removed by PR #15466 (merged end of Mar 2025, so in 0.8.3/0.8.4)"
	srcPre09     = "removed before 0.9.0; the removing release is unverified, 0.9.0 is recorded so it is never reported removed too early"
)

// modelFlags are engine (EngineArgs) flags real launch scripts use, and the
// removed ones they still carry.
var modelFlags = []Flag{
	{Name: "tokenizer-mode", Kind: String, Default: "auto", Span: Span{Since: vPre},
		Doc: "tokenizer implementation (auto, slow, mistral, custom, ...; names grow, values not checked)", Verified: true, Source: srcNS085 + "; pre-0.5 synopsis ({auto,slow}); issue #55914 (2026) still uses it"},
	{Name: "tokenizer-revision", Kind: String, Span: Span{Since: vPre}, Doc: "tokenizer revision", Source: srcEA085 + "; presence after 0.8.5 not read"},
	{Name: "code-revision", Kind: String, Span: Span{Since: vPre}, Doc: "revision of the model code on the hub", Source: srcNS085 + "; pre-0.5 synopsis; presence after 0.8.5 not read"},
	{Name: "hf-config-path", Kind: String, Span: Span{Since: v080}, Doc: "HF config path when it differs from the model", Source: srcTagRead("v0.7.3 (absent) and v0.8.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcNS085 + "; first in the 0.8.1 synopsis read; earlier unverified"},
	{Name: "allowed-local-media-path", Kind: String, Span: Span{Since: v064},
		Doc: "directory API requests may read local media from (security risk)", Source: srcTagRead("v0.6.3 (absent) and v0.6.4 (present)", "vllm/engine/arg_utils.py") + "; " + srcNS085 + "; seen in the 0.6.6.post1 synopsis; earlier unverified"},
	{Name: "skip-tokenizer-init", Kind: StoreTrue, Default: "False", Span: Span{Since: vPre, Removed: v090}, Doc: "do not load a tokenizer", Source: srcTagRead("v0.8.5 (store_true, no --no-skip-tokenizer-init) and v0.9.0 (BooleanOptionalAction, --no-skip-tokenizer-init)", "vllm/engine/arg_utils.py") + "; " + srcEA085 + "; pre-0.5 synopsis; presence after 0.8.5 not read"},
	{Name: "skip-tokenizer-init", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "do not load a tokenizer", Source: srcTagRead("v0.8.5 (store_true, no --no-skip-tokenizer-init) and v0.9.0 (BooleanOptionalAction, --no-skip-tokenizer-init)", "vllm/engine/arg_utils.py") + "; " + srcEA085 + "; pre-0.5 synopsis; presence after 0.8.5 not read"},
	{Name: "ignore-patterns", Kind: StringList, Span: Span{Since: vPre}, Doc: "weight-file patterns to skip when loading", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "model-loader-extra-config", Kind: JSON, Span: Span{Since: vPre}, Doc: "extra config for the model loader", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcEA085 + "; seen in the 0.8.4 synopsis; earlier unverified"},
	{Name: "max-parallel-loading-workers", Kind: Int, Span: Span{Since: vPre},
		Doc: "load weights in batches to limit host RAM", Verified: true, Source: srcFacts + "; pre-0.5 synopsis; the stored newest vllm/config/parallel.py still reads it (warns it is ignored)"},
	{Name: "ray-workers-use-nsight", Kind: StoreTrue, Default: "False", Span: Span{Since: vPre, Removed: v084}, Doc: "profile Ray workers with Nsight", Source: srcTagRead("v0.8.3 (store_true, no --no-ray-workers-use-nsight) and v0.8.4 (BooleanOptionalAction, --no-ray-workers-use-nsight)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; pre-0.5 synopsis; presence now not read"},
	{Name: "ray-workers-use-nsight", Kind: Bool, Default: "False", Span: Span{Since: v084}, Doc: "profile Ray workers with Nsight", Source: srcTagRead("v0.8.3 (store_true, no --no-ray-workers-use-nsight) and v0.8.4 (BooleanOptionalAction, --no-ray-workers-use-nsight)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; pre-0.5 synopsis; presence now not read"},
	{Name: "max-logprobs", Kind: Int, Default: "20", Span: Span{Since: vPre}, Doc: "max logprobs a request may ask for", Source: srcFacts + "; pre-0.5 synopsis; default and presence now not read"},
	{Name: "rope-scaling", Kind: JSON, Span: Span{Since: vPre, Removed: v0111},
		Doc: "RoPE scaling JSON; from 0.11.1 it goes through --hf-overrides (the flag is gone at the v0.11.1 tag)", Source: srcTagRead("v0.5.3 (present); v0.11.0 (present) and v0.11.1 (absent)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read" + "; " + srcFARope},
	{Name: "rope-theta", Kind: Float, Span: Span{Since: vPre, Removed: v0111},
		Doc: "RoPE theta; from 0.11.1 it goes through --hf-overrides (the flag is gone at the v0.11.1 tag)", Source: srcTagRead("v0.5.3 (present); v0.11.0 (present) and v0.11.1 (absent)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read" + "; " + srcFARope},
	{Name: "limit-mm-per-prompt", Kind: JSON, Span: Span{Since: v055},
		Doc: `max multimodal items per prompt, e.g. '{"image":4}' (older key=value form also seen)`, Source: srcTagRead("v0.5.4 (absent) and v0.5.5 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "language-model-only", Kind: Bool, Default: "False", Span: Span{Since: v0170},
		Doc: "serve a multimodal checkpoint as its language model only (the vision/audio encoders are not loaded)", Verified: true,
		Source: "vLLM PR #34120; read at the tags: absent from vllm/engine/arg_utils.py at v0.16.0, present at v0.17.0 (\"--language-model-only\", from MultiModalConfig.language_model_only) through v0.24.0; no 0.16.1 was released"},
	{Name: "mm-processor-kwargs", Kind: JSON, Span: Span{Since: mustVersion("0.6.2")}, Doc: "overrides for the multimodal processor", Source: srcTagRead("v0.6.1 (absent) and v0.6.2 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "generation-config", Kind: String, Default: "auto", Span: Span{Since: v066},
		Doc: "where default sampling params come from: auto (model's generation_config.json), vllm, or a folder", Source: srcTagRead("v0.6.5 (absent) and v0.6.6 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "override-generation-config", Kind: JSON, Span: Span{Since: mustVersion("0.7.1")}, Doc: "overrides on top of --generation-config", Source: srcTagRead("v0.7.0 (absent) and v0.7.1 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "logits-processor-pattern", Kind: String, Span: Span{Since: v065, Removed: v0170}, Doc: "regex of logits processors requests may name", Source: srcTagRead("v0.6.4 (absent) and v0.6.5 (present); v0.16.0 (present) and v0.17.0 (absent)", "vllm/engine/arg_utils.py") + "; " + srcEA085 + "; seen in the 0.6.6.post1 synopsis" + "; earlier releases unverified" + "; " + srcFALogitsPattern},
	{Name: "logits-processors", Kind: StringList, Span: Span{Since: v0101},
		Doc: "custom V1 logits processor classes (first release ≈0.10.x unverified)", Source: srcTagRead("v0.10.0 (absent) and v0.10.1 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "enable-sleep-mode", Kind: StoreTrue, Default: "False", Span: Span{Since: v070, Removed: v090}, Doc: "allow /sleep and /wake_up (frees GPU memory)", Source: srcTagRead("v0.8.5 (store_true, no --no-enable-sleep-mode) and v0.9.0 (BooleanOptionalAction, --no-enable-sleep-mode)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.6.6 (absent) and v0.7.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "enable-sleep-mode", Kind: Bool, Default: "False", Span: Span{Since: v090}, Doc: "allow /sleep and /wake_up (frees GPU memory)", Source: srcTagRead("v0.8.5 (store_true, no --no-enable-sleep-mode) and v0.9.0 (BooleanOptionalAction, --no-enable-sleep-mode)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.6.6 (absent) and v0.7.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "calculate-kv-scales", Kind: StoreTrue, Default: "False", Span: Span{Since: v070, Removed: v085}, Doc: "compute FP8 KV scales on the fly", Source: srcTagRead("v0.8.4 (store_true, no --no-calculate-kv-scales) and v0.8.5 (BooleanOptionalAction, --no-calculate-kv-scales)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.6.6 (absent) and v0.7.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "calculate-kv-scales", Kind: Bool, Default: "False", Span: Span{Since: v085}, Doc: "compute FP8 KV scales on the fly", Source: srcTagRead("v0.8.4 (store_true, no --no-calculate-kv-scales) and v0.8.5 (BooleanOptionalAction, --no-calculate-kv-scales)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.6.6 (absent) and v0.7.0 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "otlp-traces-endpoint", Kind: String, Span: Span{Since: vPre}, Doc: "OpenTelemetry traces endpoint", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "collect-detailed-traces", Kind: StringList, Span: Span{Since: v055}, Doc: "extra trace detail (model, worker, all)", Source: srcTagRead("v0.5.4 (absent) and v0.5.5 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "scheduling-policy", Kind: String, Choices: []string{"fcfs", "priority"}, Default: "fcfs", Span: Span{Since: v063},
		Doc: "request scheduling order", Source: srcTagRead("v0.6.2 (absent) and v0.6.3 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "preemption-mode", Kind: String, Span: Span{Since: vPre, Removed: v0110}, Doc: "recompute or swap (V0 concept; removal release unverified)", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read" + "; " + srcFAPreemption},
	{Name: "long-prefill-token-threshold", Kind: Int, Default: "0", Span: Span{Since: v073}, Doc: "a prefill longer than this counts as long", Source: srcTagRead("v0.7.2 (absent) and v0.7.3 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "max-num-partial-prefills", Kind: Int, Default: "1", Span: Span{Since: v073}, Doc: "concurrent partial prefills", Source: srcTagRead("v0.7.2 (absent) and v0.7.3 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},
	{Name: "max-long-partial-prefills", Kind: Int, Default: "1", Span: Span{Since: v073}, Doc: "concurrent long partial prefills", Source: srcTagRead("v0.7.2 (absent) and v0.7.3 (present)", "vllm/engine/arg_utils.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFacts},

	// --- LoRA ---
	{Name: "enable-lora", Kind: StoreTrue, Default: "False", Span: Span{Since: vPre, Removed: v085}, Doc: "serve LoRA adapters", Source: srcTagRead("v0.8.4 (store_true, no --no-enable-lora) and v0.8.5 (BooleanOptionalAction, --no-enable-lora)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "enable-lora", Kind: Bool, Default: "False", Span: Span{Since: v085}, Doc: "serve LoRA adapters", Source: srcTagRead("v0.8.4 (store_true, no --no-enable-lora) and v0.8.5 (BooleanOptionalAction, --no-enable-lora)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "max-loras", Kind: Int, Default: "1", Span: Span{Since: vPre}, Doc: "LoRAs in one batch", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "max-lora-rank", Kind: Int, Default: "16", Span: Span{Since: vPre}, Doc: "max LoRA rank (a fixed set of ranks in newer releases)", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "max-cpu-loras", Kind: Int, Span: Span{Since: vPre}, Doc: "LoRAs cached in CPU memory", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "fully-sharded-loras", Kind: StoreTrue, Default: "False", Span: Span{Since: vPre, Removed: v085}, Doc: "shard all LoRA computation over TP", Source: srcTagRead("v0.8.4 (store_true, no --no-fully-sharded-loras) and v0.8.5 (BooleanOptionalAction, --no-fully-sharded-loras)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "fully-sharded-loras", Kind: Bool, Default: "False", Span: Span{Since: v085}, Doc: "shard all LoRA computation over TP", Source: srcTagRead("v0.8.4 (store_true, no --no-fully-sharded-loras) and v0.8.5 (BooleanOptionalAction, --no-fully-sharded-loras)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcFacts + "; first release (before 0.5.3) not read"},
	{Name: "lora-dtype", Kind: String, Choices: []string{"auto", "float16", "bfloat16", "float32"}, Default: "auto", Span: Span{Since: vPre, Removed: v064post1},
		Doc: "LoRA dtype", Verified: true, Source: srcTagRead("v0.5.3-v0.6.4 (choices=['auto', 'float16', 'bfloat16', 'float32'])", "vllm/engine/arg_utils.py") + "; first release (before 0.5.3) not read"},
	{Name: "lora-dtype", Kind: String, Choices: []string{"auto", "float16", "bfloat16"}, Default: "auto", Span: Span{Since: v064post1},
		Doc: "LoRA dtype", Verified: true, Source: srcTagRead("v0.6.4.post1 (float32 dropped from choices) to v0.24.0 (LoRAConfig lora_dtype Literal from v0.8.5)", "vllm/engine/arg_utils.py, vllm/config.py / vllm/config/lora.py") + "; " + srcFacts},

	// --- structured outputs ---
	{Name: "guided-decoding-backend", Kind: String, Span: Span{Since: vPre, Removed: v0120}, Deprecated: v0102,
		Doc: "replaced by --structured-outputs-config.backend (or '{\"backend\": ...}')", Verified: true, Source: srcGuided + "; 0.5.0 synopsis ({outlines,lm-format-enforcer}); 0.6.6.post1 adds xgrammar"},
	{Name: "structured-outputs-config", Kind: JSON, Span: Span{Since: v0110},
		Doc: "structured outputs settings (backend, ...); replaces --guided-decoding-*", Source: srcTagRead("v0.10.2 (absent) and v0.11.0 (present)", "vllm/engine/arg_utils.py") + "; " + srcGuided + "; first release ≈0.10.2 (unverified)"},

	// --- removed with the V0 engine ---
	{Name: "max-seq-len-to-capture", Kind: Int, Default: "8192", Span: Span{Since: vPre, Removed: v0110},
		Doc:      "CUDA graph coverage (V0); removed by PR #25543, use --max-cudagraph-capture-size / compilation config",
		Verified: true, Source: "PR #25543 (Sep 2025); NVIDIA-NeMo/Curator PR #1200 drops it for 0.11.0" + "; pre-0.5 synopsis (--max-seq_len-to-capture)"},
	{Name: "num-scheduler-steps", Kind: Int, Default: "1", Span: Span{Since: v055, Removed: v0101},
		Doc: "multi-step scheduling (V0 only); removed, drop the flag", Source: srcTagRead("v0.5.4 (absent) and v0.5.5 (present); v0.10.0 (present) and v0.10.1 (absent)", "vllm/engine/arg_utils.py") + "; " + srcMultiStep + "; multi-step scheduling (PR #7000, Aug 2024) first release unverified"},
	{Name: "multi-step-stream-outputs", Kind: StoreTrue, Span: Span{Since: mustVersion("0.6.2"), Removed: v085},
		Doc: "multi-step streaming (V0 only); removed, drop the flag", Source: srcTagRead("v0.8.4 (store_true, no --no-multi-step-stream-outputs) and v0.8.5 (BooleanOptionalAction, --no-multi-step-stream-outputs)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.6.1 (absent) and v0.6.2 (present); v0.10.0 (present) and v0.10.1 (absent)", "vllm/engine/arg_utils.py") + "; " + srcMultiStep},
	{Name: "multi-step-stream-outputs", Kind: Bool, Span: Span{Since: v085, Removed: v0101},
		Doc: "multi-step streaming (V0 only); removed, drop the flag", Source: srcTagRead("v0.8.4 (store_true, no --no-multi-step-stream-outputs) and v0.8.5 (BooleanOptionalAction, --no-multi-step-stream-outputs)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.6.1 (absent) and v0.6.2 (present); v0.10.0 (present) and v0.10.1 (absent)", "vllm/engine/arg_utils.py") + "; " + srcMultiStep},

	// --- removed before the table starts ---
	{Name: "speculative-model", Kind: String, Span: Span{Since: vPre, Removed: v083},
		Doc: `use --speculative-config '{"model": ..., "num_speculative_tokens": N}'`, Source: srcTagRead("v0.8.2 (present) and v0.8.3 (absent)", "vllm/engine/arg_utils.py") + "; " + srcSpecPR + "; present in docs 0.5.1/0.6.4/0.7.1 spec_decode; removal by PR #15466 lands in 0.8.3 or 0.8.4, 0.9.0 is recorded so it is never reported removed too early" + "; removal release unverified"},
	{Name: "num-speculative-tokens", Kind: Int, Span: Span{Since: vPre, Removed: v083},
		Doc: `use --speculative-config '{"num_speculative_tokens": N, ...}'`, Source: srcTagRead("v0.8.2 (present) and v0.8.3 (absent)", "vllm/engine/arg_utils.py") + "; " + srcSpecPR + "; present in docs 0.5.1/0.6.4/0.7.1 spec_decode; removal by PR #15466 lands in 0.8.3 or 0.8.4, 0.9.0 recorded" + "; removal release unverified"},
	{Name: "use-v2-block-manager", Kind: StoreTrue, Span: Span{Since: vPre, Removed: v0100},
		Doc: "no-op since block manager v1 was removed (PR #8704); drop the flag", Source: srcTagRead("v0.9.2 (present) and v0.10.0 (absent)", "vllm/engine/arg_utils.py") + "; " + srcPre09 + "; PR #13492 (Feb 2025) removed dangling references" + "; still in the 0.6.3.post1 synopsis; removal release unverified"},
	{Name: "worker-use-ray", Kind: StoreTrue, Span: Span{Since: vPre, Removed: v070},
		Doc: "use --distributed-executor-backend ray", Verified: true, Source: "in the 0.6.6.post1 engine-args usage, not in 0.8.1's; deprecated since 0.4.3; gone in 0.7.0 (vLLM PR #12383; OpenRLHF PR #702, EleutherAI/lm-evaluation-harness #2706)" + "; 0.5.0 synopsis"},
	{Name: "engine-use-ray", Kind: StoreTrue, Span: Span{Since: vPre, Removed: v061post1}, Deprecated: v055, Verified: true,
		Doc:    "run the engine as a Ray actor; from 0.5.5 vLLM refuses it (ValueError) unless VLLM_ALLOW_ENGINE_USE_RAY=1, removed in 0.6.1.post1 (PR #8126): drop the flag",
		Source: srcEngineUseRay},
}

func init() { flagTable = append(flagTable, modelFlags...) }

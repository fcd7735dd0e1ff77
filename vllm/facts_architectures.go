package vllm

// Releases that serve the architectures issue #23 added, as far as cited
// sources show: vLLM's recipes state a minimum release per model
// (vllm-project/recipes at 8959cf6, models/<org>/<model>.yaml,
// model.min_vllm_version); the first release whose model registry has the
// architecture was not read for any of them, so releases before the
// recipe's minimum are unverified (Maybe), never refused.
const (
	srcArchRecipes = "vllm-project/recipes@8959cf6 models/*/<model>.yaml min_vllm_version; the first release with the architecture not read (unverified before)"
	srcDSV4KVFP8   = "vllm/model_executor/layers/deepseek_v4_attention.py (DeepseekV4MLAAttention: assert kv_cache_dtype.startswith(\"fp8\"), \"DeepseekV4 only supports fp8 kv-cache format for now\"; a later stored copy maps auto to fp8 first, release not pinned); " +
		"deployment notes quoting the vLLM 0.21 failure \"AssertionError: DeepseekV4 only supports fp8 kv-cache format for now, got auto\" (secondary)"
)

// ArchitectureSupport is what the sources say of a release and one
// architecture (a catalog model_type).
type ArchitectureSupport struct {
	// Serves is Present from the recipes' minimum release, Maybe before it
	// (the first release with the architecture is unknown).
	Serves Presence
	// Since is the recipes' minimum release.
	Since  Version
	Note   string
	Source string
}

// archSince are the recipes' minimum releases, by model_type (a
// multimodal wrapper's text model_type for Gemma 4).
var archSince = map[string]struct {
	since Version
	note  string
}{
	"deepseek_v4":   {v0200, "DeepSeek-V4-Flash (recipe models/deepseek-ai/DeepSeek-V4-Flash.yaml; its 0731 release 0.25.0); --kv-cache-dtype fp8 required where auto trips DeepseekV4MLAAttention's assert (seen at 0.21)"},
	"gemma4_text":   {mustVersion("0.19.1"), "Gemma 4 (recipes models/Google/gemma-4-26B-A4B-it.yaml, gemma-4-31B-it.yaml)"},
	"mimo_v2_flash": {v0110, "MiMo-V2-Flash (recipe models/XiaomiMiMo/MiMo-V2-Flash.yaml, with --trust-remote-code)"},
	// Read at later recipe commits than srcArchRecipes's, named here.
	"glm_moe_dsa":      {mustVersion("0.16.0"), "GLM-5 (recipe models/zai-org/GLM-5.yaml at 03927c932dcd5257ee902711c29a847053e92234: min_vllm_version 0.16.0; its guide pins 0.19.0 and transformers >= 5.4.0)"},
	"qwen3_5_moe_text": {mustVersion("0.17.0"), "Qwen3.5 MoE (recipe models/Qwen/Qwen3.5-397B-A17B.yaml at 015a26cb06e8cd628a4b56433e05c34a1782b920: min_vllm_version 0.17.0)"},
	// Nemotron-H itself is older; these are the latent-MoE releases.
	"nemotron_h": {v0171, "Nemotron-3 Super (recipe models/nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16.yaml: 0.17.1; Ultra's NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.yaml: 0.22.0)"},
	// Read at a later recipe commit than srcArchRecipes's, named here.
	"step3p5": {v0110, "Step-3.5-Flash (recipe models/stepfun-ai/Step-3.5-Flash.yaml at 109af2d30f7c21d7f071a9266ae76e0d8518a25d: min_vllm_version 0.11.0, base_args --trust-remote-code; its FP8 checkpoint runs TP 1 or 2 only: 1,280 / TP must stay a multiple of the 128-wide weight blocks)"},
}

// Architecture returns what the sources say of the release serving
// modelType; ok is false for a model_type this table does not cover.
func (r Release) Architecture(modelType string) (ArchitectureSupport, bool) {
	a, ok := archSince[modelType]
	if !ok {
		return ArchitectureSupport{}, false
	}
	s := ArchitectureSupport{Serves: Span{Since: vPre, Confirmed: a.since}.In(r.Version), Since: a.since, Note: a.note, Source: srcArchRecipes}
	if modelType == "deepseek_v4" {
		s.Source += "; " + srcDSV4KVFP8
	}
	return s, true
}

// RequiredKVCacheDType is the --kv-cache-dtype an architecture must be
// given (its attention runs no other cache layout), "" when any will do,
// and the source: DeepSeek-V4's attention asserts an FP8 cache, and at
// least one release (0.21) does not turn auto into fp8 for it, so fp8 is
// written whatever the spec leaves to auto.
func (r Release) RequiredKVCacheDType(modelType string) (dtype, source string) {
	if modelType == "deepseek_v4" {
		return "fp8", srcDSV4KVFP8
	}
	return "", ""
}

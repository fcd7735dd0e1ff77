package vllm

// Releases that serve the architectures issue #23 added, as far as cited
// sources show: vLLM's recipes state a minimum release per model
// (vllm-project/recipes at 8959cf6, models/<org>/<model>.yaml,
// model.min_vllm_version); the first release whose model registry has the
// architecture was not read for most of them, so releases before the
// recipe's minimum are unverified (Maybe), never refused. MiniMax-M3 is the
// exception: the PR that added it and a release without it are known
// (archFirst), so that release and older ones are Absent.
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
	// The first tag with the architecture; 0.23.0 is known without it (archFirst).
	"minimax_m3": {mustVersion("0.24.0"), "MiniMax-M3 (vllm-project/vllm PR #45381 \"[Model] Add MiniMax M3 support\", merged 2026-06-15 after v0.23.0 was cut, whose release notes say \"Minimax M3 is not yet supported in this version\" (quoted in timothystewart6/vllm-gb10#30); recipe models/MiniMaxAI/MiniMax-M3.yaml at 001c08c734a7: min_vllm_version 0.24.0, nightly_required, the image vllm/vllm-openai:minimax-m3; --block-size 128 required: ArchitectureBlockSize)"},
}

// archFirst are the entries for which a source shows a release without
// the architecture (the PR that added it was merged after that release was
// cut): that release and older ones are Absent, the ones between it and
// Since unverified (Maybe: a patch release is not known to have it or not).
var archFirst = map[string]struct {
	without Version
	source  string
}{
	"minimax_m3": {v0230, "vllm-project/vllm PR #45381 (adds vllm/models/minimax_m3 and its registry entries), merged 2026-06-15, after v0.23.0 (release notes: \"Minimax M3 is not yet supported in this version\", quoted in timothystewart6/vllm-gb10#30); first tag v0.24.0 (vllm-project/recipes@001c08c734a7 models/MiniMaxAI/MiniMax-M3.yaml min_vllm_version 0.24.0; vllm-project/vllm-ascend PR #12423 tested on v0.24.0; NVIDIA aiconfigurator cites vllm/models/minimax_m3 paths at v0.24.0)"},
}

// Architecture returns what the sources say of the release serving
// modelType; ok is false for a model_type this table does not cover.
func (r Release) Architecture(modelType string) (ArchitectureSupport, bool) {
	a, ok := archSince[modelType]
	if !ok {
		return ArchitectureSupport{}, false
	}
	s := ArchitectureSupport{Serves: Span{Since: vPre, Confirmed: a.since}.In(r.Version), Since: a.since, Note: a.note, Source: srcArchRecipes}
	if f, ok := archFirst[modelType]; ok {
		s.Serves, s.Source = Span{Since: vPre, Confirmed: a.since}.In(r.Version), f.source
		if !f.without.Less(r.Version) {
			s.Serves = Absent
		}
	}
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

// archRegistered are the architecture names vLLM's model registry maps for
// a model_type whose config may name another: vLLM resolves a model by
// config.architectures, and a name the registry lacks stops the engine
// ("Model architectures [...] are not supported for now") unless another
// mechanism (--hf-overrides architectures, the Transformers backend) takes
// over.
var archRegistered = map[string]struct {
	names  []string
	source string
}{
	"minimax_m3": {[]string{"MiniMaxM3SparseForCausalLM", "MiniMaxM3SparseForConditionalGeneration"},
		"vllm-project/vllm@7ffc3d06e70c vllm/models/minimax_m3/__init__.py (\"re-exports the public classes used by the model registry\": MiniMaxM3SparseForCausalLM, MiniMaxM3SparseForConditionalGeneration, MiniMaxM3MTP; no MiniMaxM3ForCausalLM class); " +
			"@0443308aa3e9 nvidia/model.py (the VL wrapper builds its text model as the registered \"MiniMaxM3SparseForCausalLM\"); NVIDIA aiconfigurator's MiniMax-M3 collector: the release config's MiniMaxM3ForCausalLM \"vLLM 0.24.0's model registry does not know\" (model_executor/models/registry.py:163-166 at v0.24.0), loaded with hf_overrides architectures MiniMaxM3SparseForCausalLM (secondary); " +
			srcM3SupportedModels + "; " + srcM3RegistryUnread},
}

// The registry names, first hand: vLLM's own model list names exactly the
// two Sparse classes for MiniMax-M3 (text and multimodal tables), and no
// MiniMaxM3ForCausalLM. registry.py itself was not readable at v0.24.0 or
// a later tag (see srcM3RegistryUnread), so the tag is not pinned here.
// Re-checked 2026-12-07 (branch m23logs): find_files still lists
// registry.py of vllm-project/vllm at bf8e7624 only, the snapshot is too
// large to fetch (1.12 GB > 0.5 GB), and the copies find_string returns
// with the two Sparse entries ("vllm.models.minimax_m3", stored ids
// 66835600290, 69105568164) are forks and notes, not the tag. A start-up
// log of a main build between 0.23.0 and 0.24.0 (0.23.1rc1.dev550+
// g58d6a6e60, 2026-06-29; stored text id 60171799662, the MiniMax-M3 case
// of published/vllm-memory-logs.yaml) prints "Resolved architecture:
// MiniMaxM3SparseForConditionalGeneration" for a minimax_m3_vl
// checkpoint: the registry resolves the wrapper class before the tag.
const (
	srcM3SupportedModels = "vllm-project/vllm@0046f770d322 docs/models/supported_models.md (text generation: `MiniMaxM3SparseForCausalLM` | MiniMax-M3 | `MiniMaxAI/MiniMax-M3`, `MiniMaxAI/MiniMax-M3-MXFP8`; " +
		"multimodal: `MiniMaxM3SparseForConditionalGeneration` | MiniMax-M3 | T + I + V; no MiniMaxM3ForCausalLM row)"
	srcM3RegistryUnread = "vllm/model_executor/models/registry.py not read at a tag: v0.24.0 is commit ee0da84ab9e0 (builds 0.24.1.dev0+gee0da84ab), and the index holds registry.py of vllm-project/vllm only at pre-MiniMax-M3 commits (0002bff0, bf8e7624)"
)

// RegisteredArchitectures returns the architecture names vLLM's registry
// maps for modelType and the source; ok is false when the table does not
// cover modelType (its config's name is taken as registered).
func (r Release) RegisteredArchitectures(modelType string) (names []string, source string, ok bool) {
	a, ok := archRegistered[modelType]
	return a.names, a.source, ok
}

// ArchitectureRegisteredSince returns the first release known to register
// the architecture class name (a config.json `architectures` entry, as
// vLLM's "Model architectures ['X'] are not supported for now" names it),
// from the registry names above and the model_type's minimum release, with
// the sources; ok is false for a class this table does not cover (which
// release, if any, registers it is then unknown here).
func ArchitectureRegisteredSince(name string) (since Version, source string, ok bool) {
	for modelType, a := range archRegistered {
		for _, n := range a.names {
			if n != name {
				continue
			}
			s, known := archSince[modelType]
			if !known {
				return Version{}, "", false
			}
			src := a.source
			if f, ok := archFirst[modelType]; ok {
				src = f.source + "; " + src
			}
			return s.since, src, true
		}
	}
	return Version{}, "", false
}

package catalog

import (
	"fmt"
	"strings"
)

// gap is what vlaunch lacks to size an architecture it refuses, and the
// modelled family nearest to it (what it would wrongly be sized as).
type gap struct{ lacks, nearest string }

// typeOnlyGaps are the knownGaps whose refusal names the model_type alone,
// not the features its keys announce: re-labelled copies of an architecture
// vlaunch models, whose keys would name features it does model.
var typeOnlyGaps = map[string]bool{"deepseek_ref": true}

// knownGaps are the architectures people serve with vLLM that vlaunch
// refuses, by model_type (a wrapper's text_config model_type included).
var knownGaps = map[string]gap{
	// Only Nemotron-H configs refused for what mambaProblem names reach here.
	"nemotron_h": {"a hybrid_override_pattern (or layers_block_type) of M, *, - and E for every layer with positive Mamba-2 fields, and a latent MoE no wider than the hidden state",
		"Nemotron-H as published (nemotron_h)"},
	// Only Gemma 4 configs refused for what gemma4Problem names reach here.
	"gemma4_text": {"per-layer embeddings (hidden_size_per_layer_input) and KV shared across layers (num_kv_shared_layers), which Gemma 4 E2B/E4B use",
		"Gemma 4 without them (gemma4_text: 26B-A4B, 31B)"},
	// Only kimi_linear configs refused for what kimiLinearProblem names
	// reach here (both KDA layers are sized: Kimi-K3's full-rank gate and
	// Kimi-Linear-48B's low-rank one).
	"kimi_linear": {"Kimi's KDA + MLA hybrid as vLLM builds it (NoPE MLA, kda_layers within the model, silu or situ MLPs)",
		"Kimi-K3 or Kimi-Linear-48B as published (kimi_linear)"},
	"minimax_m1":      {lightning, "GQA MoE (mixtral)"},
	"minimax_text_01": {lightning, "GQA MoE (mixtral)"},
	// Only MiMo-V2-Flash configs refused for what mimoProblem names reach here.
	"mimo_v2_flash":  {"a hybrid_layer_pattern for every layer and sliding-window layers with as many query heads as the full ones", "MiMo-V2-Flash as published (mimo_v2_flash)"},
	"mimo_v2":        {"a hybrid_layer_pattern for every layer and sliding-window layers with as many query heads as the full ones", "MiMo-V2.6 as published (mimo_v2)"},
	"qwen3_vl_moe":   {"the language model's fields: its text_config has none vlaunch can read", "GQA MoE (qwen3_moe)"},
	"kimi_k25":       {"the language model's fields: its text_config has none vlaunch can read", "MLA MoE (kimi_k2)"},
	"deepseek_vl_v2": {"DeepSeek-VL2's language model as vLLM builds it, not yet checked", "MLA MoE (deepseek_v2)"},
	// A mistral3 wrapper whose text_config is ministral3 or mistral is sized
	// (catalog/qwen2like.go); only another language model reaches here.
	"mistral3": {"the language model its text_config names: vLLM's Mistral3ForConditionalGeneration builds it from text_config (init_vllm_registered_model), and vlaunch sizes ministral3 and mistral text configs only", "dense GQA (mistral)"},
	// Only Step-3.x configs refused for what step3p5Problem names reach here.
	"step3p5": {"layer_types for every layer, sliding-window heads in attention_other_setting, moe_layers_enum as a string of layer indices and a shared expert as wide as the routed ones", "Step-3.x as published (step3p5)"},
	// SGLang's FP8 re-export of DeepSeek-V4 (sgl-project/DeepSeek-V4-Flash-FP8,
	// -Pro-FP8, aiconfigurator @095f58a5): DeepSeek-V4's keys (compress_ratios,
	// the indexer, hash layers) under a model_type vLLM does not register
	// (vllm/transformers_utils/config.py _CONFIG_REGISTRY maps deepseek_v4
	// to DeepseekV4Config) and transformers lacks, without expert_dtype.
	"deepseek_ref": {"a model_type vLLM loads: these are DeepSeek-V4's fields (DeepseekV4ForCausalLM) under SGLang's model_type deepseek_ref, which neither vLLM's config registry (deepseek_v4 → DeepseekV4Config) nor transformers knows; vLLM reads DeepSeek-V4 as model_type deepseek_v4, whose expert_dtype (absent here; fp4 when absent) says how the routed experts are stored",
		"DeepSeek-V4 (deepseek_v4)"},
	// Only MiniMax-M3 configs refused for what minimaxM3Problem names reach
	// here (catalog/minimaxm3.go sizes the published ones).
	"minimax_m3": {"MiniMax-M3 as vLLM's vllm/models/minimax_m3 builds it without the feature named above", "MiniMax-M3 as published (minimax_m3)"},
	// Only nemotron-nas configs refused for what nasProblem names reach
	// here (catalog/nemotronnas.go sizes the published block_configs).
	"nemotron-nas": {"Llama-Nemotron NAS as vLLM's nemotron_nas.py builds it without the feature named above (block_configs of no-op or Llama attention of one KV-head count, no-op or Llama MLPs of ffn_mult widths)",
		"Llama-Nemotron NAS as published (nemotron-nas: Llama-3.3-Nemotron-Super-49B)"},
	// Only Hunyuan / ERNIE-4.5 configs refused for what hunyuanProblem /
	// ernie45Problem name reach here (catalog/hunyuan.go, ernie45.go).
	"hunyuan":          {hunyuanLacks, "Hunyuan-A13B as published (hunyuan_v1_moe)"},
	"hunyuan_v1_moe":   {hunyuanLacks, "Hunyuan-A13B as published (hunyuan_v1_moe)"},
	"hunyuan_v1_dense": {hunyuanLacks, "Hunyuan dense as published (hunyuan_v1_dense)"},
	"ernie4_5_moe":     {"ERNIE-4.5 MoE as vLLM's ernie45_moe.py builds it without the feature named above", "ERNIE-4.5-21B-A3B as published (ernie4_5_moe)"},
	// Only Ling / Ring configs refused for what bailingProblem names reach
	// here (catalog/bailing.go sizes the published ones).
	"bailing_moe":    {"Ling / Ring as vLLM's bailing_moe.py builds them without the feature named above", "Ling / Ring as published (bailing_moe)"},
	"bailing_moe_v2": {"Ling / Ring as vLLM's bailing_moe.py builds them without the feature named above", "Ling / Ring 2.0 as published (bailing_moe_v2)"},
	"bailing_hybrid": {"linear-attention state per sequence beside the attention KV cache", "GQA MoE (qwen3_moe)"},
	// Only LongCat-Flash configs refused for what longcatProblem names
	// reach here (catalog/longcat.go sizes the published shape).
	"longcat_flash": {"LongCat-Flash as vLLM's longcat_flash.py builds it without the feature named above (num_layers layers of two MLA attentions and two dense MLPs of ffn_hidden_size beside a MoE of n_routed_experts experts of expert_ffn_hidden_size plus zero_expert_num identity zero-computation experts)",
		"LongCat-Flash as published (longcat_flash: meituan-longcat/LongCat-Flash-Chat)"},
	// Step-3.7's config.json is a wrapper: vLLM's Step3p7ForConditionalGeneration
	// (vllm/model_executor/models/step3p7.py) builds the language model from
	// text_config (step3p5, read as Step-3.5) and the PerceptionEncoder from
	// vision_config (catalog/step3p7.go). Only a step3p7 file without a
	// text_config reaches here, e.g. aiconfigurator's flattened copy, which
	// also drops the sliding layers' 96 query heads (attention_other_setting).
	"step3p7": {"the checkpoint's text_config and vision_config: vLLM's Step3p7ForConditionalGeneration reads the language model from text_config (Step-3.5's step3p5 fields) and the vision tower from vision_config, which this file lacks", "Step-3.x (step3p5: Step-3.5-Flash)"},
}

const (
	lightning    = "lightning (linear) attention state per sequence beside the softmax-attention KV cache"
	hunyuanLacks = "Hunyuan as vLLM's hunyuan_v1.py builds it (HunYuanMoEV1ForCausalLM / HunYuanDenseV1ForCausalLM) without the feature named above"
)

// gapOf is what vlaunch lacks for m and the nearest family it models: the
// known architectures by model_type, otherwise what its fields say (an
// unmodelled key's feature, an indexer, MLA, experts).
func gapOf(m *Model) gap {
	if g, ok := gapFor(m); ok {
		return g
	}
	named := quoteType(m.ModelType)
	if m.ModelType == "" && m.Wrapper != "" {
		named = quoteType(m.Wrapper) + " (the wrapper's; its text_config names none)"
	}
	g := gap{lacks: "a reading of vLLM's model file for model_type " + named + ": vlaunch sizes only the families it has checked against vLLM's"}
	var lacks []string
	for _, f := range m.Unmodelled {
		if k, ok := strings.CutPrefix(f, "layer type "); ok {
			lacks = append(lacks, "layers of type "+k)
		}
		for _, k := range unmodelledKeys {
			if what, ok := strings.CutPrefix(f, k.key+": "); ok {
				lacks = append(lacks, what)
			}
		}
	}
	if len(lacks) > 0 {
		g.lacks = strings.Join(lacks, ", ")
	} else if t, ok := modelledType(m); ok {
		// A type vlaunch models, refused for fields its config lacks (a
		// trimmed Qwen3-Next config without linear_conv_kernel_dim): the
		// refusal is about this file, not the architecture, and neither
		// "a reading of vLLM's model file" nor another family is the cure.
		return gap{lacks: "the fields named above, which vLLM's model for model_type " + quoteType(t) +
			" reads: point model.config at the checkpoint's config.json as published, whole"}
	}
	switch {
	case m.IsMLA() && m.IsSparseAttention():
		g.nearest = "MLA MoE with DeepSeek sparse attention (deepseek_v32)"
	case m.IsMLA():
		g.nearest = "MLA MoE (deepseek_v3)"
	case m.IsMoE() && m.SlidingWindow > 0:
		g.nearest = "GQA MoE with sliding-window layers (gpt_oss)"
	case m.IsMoE():
		g.nearest = "GQA MoE (qwen3_moe)"
	default:
		g.nearest = "dense GQA (llama)"
	}
	return g
}

// gapFor is the known gap of m's model_type, text_config model_type or
// wrapper, if one is listed.
func gapFor(m *Model) (gap, bool) {
	for _, t := range []string{m.ModelType, m.TextModelType, m.Wrapper} {
		if g, ok := knownGaps[t]; ok && t != "" {
			return g, true
		}
	}
	return gap{}, false
}

// modelledType is m's modelled model_type (its own, or a wrapper's
// text_config's), if it has one.
func modelledType(m *Model) (string, bool) {
	for _, t := range []string{m.ModelType, m.TextModelType} {
		if _, ok := modelledTypes[t]; ok && t != "" {
			return t, true
		}
	}
	return "", false
}

func quoteType(t string) string {
	if t == "" {
		return `"(none)"`
	}
	return `"` + t + `"`
}

// unknownTypeNote completes "config.json lacks positive …" for a config
// whose model_type vlaunch does not model (LongCat-Flash writes num_layers,
// not num_hidden_layers): the fields are missing because the architecture
// is another one, so the message names it, what vlaunch lacks for it and
// the nearest family it models, as a refusal does. "" for a modelled
// model_type, or none: then the file itself is incomplete.
func unknownTypeNote(modelType, wrapper string) string {
	if modelType == "" {
		return ""
	}
	if _, ok := modelledTypes[modelType]; ok {
		return ""
	}
	if _, ok := textModelFamilies[modelType]; ok {
		return ""
	}
	for _, t := range []string{modelType, wrapper} {
		if g, ok := knownGaps[t]; ok && t != "" {
			return fmt.Sprintf(": model_type %q is not one vlaunch models; vlaunch lacks %s; the nearest family it models is %s", modelType, g.lacks, g.nearest)
		}
	}
	return fmt.Sprintf(": model_type %q is not one vlaunch models (it sizes only the families it has checked against vLLM's model files: %s)", modelType, strings.Join(ModelledTypes(), ", "))
}

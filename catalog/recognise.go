package catalog

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// modelledTypes are the model_type values whose architecture the memory
// and step-time models describe, with the family they belong to. A config
// of another model_type may share most fields with one of these and still
// differ where it matters (attention kind, extra modules), so it is refused
// rather than sized as its neighbour.
var modelledTypes = map[string]string{
	"llama":        "dense GQA",
	"mistral":      "dense GQA",
	"qwen2":        "dense GQA",
	"qwen3":        "dense GQA",
	"qwen2_moe":    "GQA MoE",
	"qwen3_moe":    "GQA MoE",
	"mixtral":      "GQA MoE",
	"glm4_moe":     "GQA MoE (partial RoPE, optional QK norm, fp32 router)",
	"gpt_oss":      "GQA MoE with sliding-window layers and attention sinks",
	"deepseek_v2":  "MLA MoE",
	"deepseek_v3":  "MLA MoE",
	"kimi_k2":      "MLA MoE",
	"deepseek_v32": "MLA MoE with DeepSeek sparse attention (indexer)",
	"minimax_m2":   "GQA MoE (QK norm over all heads, partial RoPE, fp32 router)",
	// MiniMax-M3 (catalog/minimaxm3.go): block-sparse attention with an
	// indexer side cache on the layers sparse_attention_freq marks.
	"minimax_m3": "GQA MoE with block-sparse attention and an indexer key cache, dense first layers, shared expert (MiniMax-M3)",
	// ERNIE-4.5 MoE (catalog/ernie45.go): experts between
	// moe_layer_start_index and moe_layer_end_index, shared experts, an fp32
	// router with a correction bias.
	"ernie4_5_moe": "GQA MoE with dense leading layers, shared experts, fp32 router (ERNIE-4.5)",
	// Ling / Ring 2.0 (catalog/bailing.go): DeepSeek-style dense first
	// layers, shared experts, sigmoid router with an expert bias.
	"bailing_moe":    "GQA MoE with dense first layers, shared experts, QK norm (Ling / Ring)",
	"bailing_moe_v2": "GQA MoE with dense first layers, shared experts, QK norm (Ling / Ring 2.0)",
	// Hunyuan (catalog/hunyuan.go): GQA with QK norm, MoE in every layer
	// with a shared MLP, per-layer lists of one value.
	"hunyuan":          "GQA MoE with QK norm and a shared MLP in every layer (Hunyuan-A13B)",
	"hunyuan_v1_moe":   "GQA MoE with QK norm and a shared MLP in every layer (Hunyuan-A13B)",
	"hunyuan_v1_dense": "dense GQA with QK norm (Hunyuan dense)",
	// OLMo 2 / Olmo 3 (catalog/olmo.go): dense, QK norm over all heads,
	// post-norm; Olmo 3's sliding-window layers as layer_types says.
	"olmo2": "dense GQA with QK norm over all heads (OLMo 2)",
	"olmo3": "dense GQA with QK norm over all heads and sliding-window layers (Olmo 3)",
	// vLLM builds GLM-5 as DeepSeek-V3.2: GlmMoeDsaForCausalLM is an empty
	// subclass of DeepseekV2ForCausalLM (vllm/model_executor/models/
	// deepseek_v2.py), MLA with the DSA indexer since index_topk is set.
	"glm_moe_dsa": "MLA MoE with DeepSeek sparse attention (indexer; GLM-5)",
	// DeepSeek-V4 (catalog/deepseekv4.go): MQA over a 512-wide head with
	// per-layer compressed keys (C4A with an indexer, C128A) beside a
	// sliding window, hyper-connections, hash-routed and FP4 experts.
	// MiMo-V2-Flash (catalog/mimo.go): sliding-window and full layers with
	// their own KV heads, K and V of different sizes.
	"mimo_v2_flash": "GQA MoE with sliding-window and full layers of their own KV heads, sinks, K/V of different sizes (MiMo-V2-Flash)",
	// MiMo-V2.6's config.json: the same decoder (catalog/mimo.go).
	"mimo_v2":     "GQA MoE with sliding-window and full layers of their own KV heads, sinks, K/V of different sizes (MiMo-V2.6)",
	"deepseek_v4": "MoE with compressed sparse attention (C4A/C128A + sliding window, DeepSeek-V4)",
	// Step-3.x (catalog/step3p5.go): sliding-window layers with their own
	// query heads, a head-wise attention gate, experts where
	// moe_layers_enum says, one shared expert.
	"step3p5": "GQA MoE with sliding-window layers of their own query heads, head-wise attention gate, shared expert (Step-3.x)",
	// Kimi-K3's language model and Kimi-Linear-48B (catalog/kimilinear.go):
	// Kimi Delta Attention state per sequence beside the MLA layers' cache;
	// K3's MoE latent, Kimi-Linear's plain.
	"kimi_linear": "MLA MoE hybrid with Kimi Delta Attention linear attention (Kimi-K3, Kimi-Linear-48B)",
	// Gated DeltaNet hybrids (catalog/hybrid.go): linear-attention state per
	// sequence beside the full-attention layers' paged KV cache.
	"qwen3_next":       "GQA MoE hybrid with Gated DeltaNet linear attention",
	"qwen3_5_text":     "dense GQA hybrid with Gated DeltaNet linear attention",
	"qwen3_5_moe_text": "GQA MoE hybrid with Gated DeltaNet linear attention",
	// Nemotron-H (catalog/mamba.go): Mamba-2, attention, MLP and MoE layers
	// as hybrid_override_pattern spells them.
	"nemotron_h": "Mamba-2 / attention / MLP / MoE hybrid (hybrid_override_pattern)",
	// Granite-4.0-H (catalog/granite.go).
	"granitemoehybrid": "Mamba-2 / attention hybrid, each layer's mixer followed by a MoE and a shared MLP or a dense MLP (Granite-4.0-H: layer_types)",
	// Llama 4 (catalog/llama4.go), chunked layers sized as full attention.
	"llama4_text": "GQA MoE interleaved with dense layers, shared expert (Llama 4)",
	// Gemma 3 (catalog/gemma3.go): sliding-window layers as gpt-oss's.
	"gemma3_text": "dense GQA with sliding-window layers and QK norm (Gemma 3)",
	// Gemma 4 (catalog/gemma4.go): global layers with their own head size
	// and KV heads, a MoE block beside the MLP (26B-A4B).
	"gemma4_text": "GQA with sliding-window and wider global layers, optional MoE beside the MLP (Gemma 4)",
	// Llama-Nemotron NAS (catalog/nemotronnas.go): Llama layers whose
	// attention or FFN may be a no-op, each FFN of its own width.
	"nemotron-nas": "dense GQA with per-layer no-op attention or FFN and per-layer FFN widths (Llama-Nemotron NAS: block_configs)",
	// LongCat-Flash (catalog/longcat.go): two MLA attentions and two dense
	// MLPs per layer beside a MoE with zero-computation experts.
	"longcat_flash": "MLA MoE with two attentions and two dense MLPs per layer beside experts and zero-computation experts (LongCat-Flash)",
}

// ModelledTypes lists the model_type values vlaunch models, sorted.
func ModelledTypes() []string {
	out := make([]string, 0, len(modelledTypes))
	for t := range modelledTypes {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// unmodelledKeys are config.json keys that announce an architecture
// feature the models do not describe, with what it is. Their presence is
// what counts: a config that carries them is a different architecture even
// under a known model_type.
var unmodelledKeys = []struct{ key, what string }{
	{"linear_num_value_heads", "linear attention (Gated DeltaNet layers, Qwen3-Next)"},
	{"full_attention_interval", "hybrid linear/full attention layers"},
	{"linear_attn_config", "linear attention (Kimi Linear)"},
	{"attn_type_list", "lightning (linear) attention layers (MiniMax)"},
	{"hybrid_override_pattern", "Mamba/attention hybrid layers"},
	{"mamba_d_state", "Mamba state-space layers"},
	{"ssm_state_size", "state-space layers"},
	{"attention_chunk_size", "chunked local attention (Llama 4, MiMo-V2)"},
	{"no_rope_layers", "layers without positional encoding (Llama 4)"},
	{"compress_ratios", "compressed sparse attention (DeepSeek-V4)"},
}

// modelledLayerTypes are the layer_types entries the models describe.
var modelledLayerTypes = map[string]bool{"full_attention": true, "sliding_attention": true}

// unmodelledFeatures lists what a parsed config has that vlaunch does not
// model: an unknown model_type, a key announcing another attention kind, a
// layer type other than full or sliding attention, or a DSA indexer on a
// model that is not MLA (or is incomplete).
// raw holds the language model's config keys (a wrapper's text_config).
func unmodelledFeatures(raw map[string]json.RawMessage, m *Model) []string {
	var out []string
	if _, ok := modelledTypes[m.ModelType]; !ok {
		switch t := m.ModelType; {
		case t == "" && m.Wrapper != "":
			// nvidia/MiniMax-M3-NVFP4's text_config states none: the
			// wrapper's model_type is what names the architecture.
			out = append(out, fmt.Sprintf("text_config without a model_type (multimodal wrapper model_type %q)", m.Wrapper))
		case t == "":
			out = append(out, `model_type "(none)"`)
		default:
			out = append(out, fmt.Sprintf("model_type %q", t))
		}
		if typeOnlyGaps[m.ModelType] {
			// The keys of a re-labelled copy of a modelled architecture
			// (SGLang's deepseek_ref DeepSeek-V4) would name features
			// vlaunch models; the model_type is what vLLM cannot load.
			if q := unmodelledQuant(m.Quant); q != "" {
				out = append(out, q)
			}
			return out
		}
	}
	for _, k := range unmodelledKeys {
		if v, ok := raw[k.key]; ok && !(k.key == "attn_type_list" && allSoftmax(v)) && !(m.GDN != nil && gdnKeys[k.key]) && !(m.KimiLinear != nil && k.key == "linear_attn_config") && !((m.Mamba != nil || m.Granite != nil) && mambaKeys[k.key]) && !(m.ModelType == "llama4_text" && llama4Keys[k.key]) && !(m.DSV4 != nil && k.key == "compress_ratios") && !(m.MiMo != nil && k.key == "attention_chunk_size") {
			out = append(out, k.key+": "+k.what)
		}
	}
	if p := m.mambaProblem(); p != "" {
		out = append(out, p)
	}
	if p := m.graniteProblem(); p != "" {
		out = append(out, p)
	}
	if p := m.mimoProblem(); p != "" {
		out = append(out, p)
	}
	if p := m.kimiLinearProblem(); p != "" {
		out = append(out, p)
	}
	if p := m.hunyuanProblem(); p != "" {
		out = append(out, p)
	}
	if p := m.nasProblem(); p != "" {
		out = append(out, p)
	}
	if p := m.longcatProblem(); p != "" {
		out = append(out, p)
	}
	if p := m.minimaxM3Problem(); p != "" {
		out = append(out, p)
	}
	for _, k := range m.ListKeys {
		out = append(out, k+" as a per-layer list: vLLM's model for this model_type reads one integer")
	}
	if p := m.bailingProblem(); p != "" {
		out = append(out, p)
	}
	if p := m.ernie45Problem(); p != "" {
		out = append(out, p)
	}
	if p := m.step3p5Problem(); p != "" {
		out = append(out, p)
	}
	if p := m.gemma4Problem(); p != "" {
		out = append(out, p)
	}
	if p := m.deepseekV4Problem(); p != "" {
		out = append(out, p)
	}
	if m.GDN != nil && !m.GDN.complete() {
		out = append(out, strings.Join(m.GDN.badFields(), ", ")+": Gated DeltaNet fields missing, not positive or out of range (value heads a multiple of key heads)")
	}
	seen := map[string]bool{}
	for _, lt := range m.LayerTypes {
		if lt == LayerLinearAttention && m.GDN != nil {
			continue
		}
		if !modelledLayerTypes[lt] && !seen[lt] {
			seen[lt] = true
			out = append(out, fmt.Sprintf("layer type %q", lt))
		}
	}
	if q := unmodelledQuant(m.Quant); q != "" {
		out = append(out, q)
	}
	if m.IsSparseAttention() && (!m.IsMLA() || m.IndexNHeads <= 0 || m.IndexHeadDim <= 0) {
		out = append(out, "index_topk without MLA and a complete indexer (index_n_heads, index_head_dim): DeepSeek sparse attention is modelled on MLA models only")
	}
	return out
}

// UnmodelledError says which parts of a config.json vlaunch cannot model.
type UnmodelledError struct {
	ModelType    string
	Architecture string
	// Wrapper is the multimodal wrapper's model_type ("" without one).
	Wrapper  string
	Features []string
	// Lacks is what vlaunch lacks to size the architecture; Nearest the
	// modelled family closest to it. Both are empty for a checkpoint
	// refused for its quantization only.
	Lacks, Nearest string
}

// Error names the features and what vlaunch does model.
func (e *UnmodelledError) Error() string {
	arch := e.ModelType
	var of []string
	if e.Wrapper != "" {
		of = append(of, "language model of the multimodal wrapper "+quoteType(e.Wrapper))
	}
	if e.Architecture != "" {
		of = append(of, e.Architecture)
	}
	if len(of) > 0 {
		arch = strings.TrimSpace(arch + " (" + strings.Join(of, ", ") + ")")
	}
	if e.quantOnly() {
		return fmt.Sprintf("vlaunch cannot model this checkpoint %s: %s; its memory and step time would be those of a different model",
			arch, strings.Join(e.Features, "; "))
	}
	msg := fmt.Sprintf("vlaunch cannot model this architecture %s: %s", arch, strings.Join(e.Features, "; "))
	if e.Lacks != "" {
		msg += "; vlaunch lacks " + e.Lacks
	}
	if e.Nearest != "" {
		msg += "; the nearest family it models is " + e.Nearest + ", and sizing it as that would give another model's memory and step time"
	}
	return msg
}

// quantOnly reports whether everything unmodelled is the quantization.
func (e *UnmodelledError) quantOnly() bool {
	for _, f := range e.Features {
		if !isQuantFeature(f) {
			return false
		}
	}
	return len(e.Features) > 0
}

// Hint lists the model types vlaunch models (and, for a quantized
// checkpoint, the weight formats it sizes).
func (e *UnmodelledError) Hint() string {
	if e.quantOnly() {
		return "vlaunch sizes unquantized (bf16/fp16), fp8 (fp8, fbgemm_fp8, ModelOpt FP8, 8-bit compressed-tensors), mxfp4 (gpt-oss, compressed-tensors), " +
			"NVFP4 (ModelOpt, compressed-tensors), ModelOpt MIXED_PRECISION (FP8 / NVFP4 per module) and 4-bit INT4 (GPTQ, AWQ, compressed-tensors) checkpoints; " +
			"point model.config at the unquantized model's config.json for an upper bound, or use an FP8 checkpoint"
	}
	return "vlaunch models the model_types " + strings.Join(ModelledTypes(), ", ") +
		" (also as a multimodal wrapper's text_config, and Qwen3-VL's qwen3_vl_text / qwen3_vl_moe_text)" +
		"; a config whose attention or layers differ from these is refused rather than sized as its predecessor"
}

// Modelled returns an *UnmodelledError when the model has an architecture
// feature (or model_type) the memory and step-time models do not describe.
func (m *Model) Modelled() error {
	if len(m.Unmodelled) == 0 {
		return nil
	}
	e := &UnmodelledError{ModelType: m.ModelType, Architecture: m.Architecture, Wrapper: m.Wrapper, Features: m.Unmodelled}
	if !e.quantOnly() {
		g := gapOf(m)
		e.Lacks, e.Nearest = g.lacks, g.nearest
	}
	return e
}

// indexerQuantBlock is the number of indexer key values sharing one fp32
// scale in vLLM's indexer cache.
const indexerQuantBlock = 128

// IndexerCacheBytes is what one token costs in one layer's DSA indexer
// key cache: vLLM's DeepseekV32IndexerCache stores the index_head_dim key
// in FP8 plus one fp32 scale per 128 values, head_size = index_head_dim +
// index_head_dim / 128 × 4 bytes of uint8 (vllm/model_executor/models/
// deepseek_v2.py), whatever --kv-cache-dtype says: 132 B for V3.2.
func (m *Model) IndexerCacheBytes() int {
	if !m.IsSparseAttention() {
		return 0
	}
	return m.IndexHeadDim + m.IndexHeadDim/indexerQuantBlock*4
}

// MLACacheBytes is what one token costs in one layer's MLA cache for a KV
// element of elem bytes: the latent and the RoPE key. With DSA and an FP8
// cache vLLM's FLASHMLA_SPARSE backend uses the fp8_ds_mla layout instead
// (vllm's attention layer canonicalizes a quantized cache dtype to it):
// kv_lora_rank FP8 values, one fp32 scale per 128 of them, and the RoPE key
// in BF16 — 512 + 16 + 128 = 656 B for V3.2 (FlashMLA's sparse FP8 format;
// the byte layout is FlashMLA's documentation, not re-read in vLLM).
func (m *Model) MLACacheBytes(elem int) int {
	if m.IsSparseAttention() && elem == 1 {
		return m.KVLoraRank + m.KVLoraRank/indexerQuantBlock*4 + 2*m.QKRopeHeadDim
	}
	return (m.KVLoraRank + m.QKRopeHeadDim) * elem
}

// allSoftmax reports whether a MiniMax attn_type_list marks every layer 1
// (softmax attention; 0 is lightning attention): MiniMax-M2.7 lists 62
// ones, MiniMax-Text-01 / M1 mix in zeros.
func allSoftmax(v json.RawMessage) bool {
	var types []int
	if json.Unmarshal(v, &types) != nil || len(types) == 0 {
		return false
	}
	for _, t := range types {
		if t != 1 {
			return false
		}
	}
	return true
}

// gdnKeys are the unmodelledKeys a Gated DeltaNet hybrid's config carries
// and vlaunch models for its families.
var gdnKeys = map[string]bool{"linear_num_value_heads": true, "full_attention_interval": true}

// mambaKeys are the unmodelledKeys a Nemotron-H config carries and vlaunch
// models for it.
var mambaKeys = map[string]bool{"hybrid_override_pattern": true, "ssm_state_size": true, "mamba_d_state": true, "layers_block_type": true}

package catalog

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/internal/inputfile"
)

// hfConfig is the subset of a Hugging Face config.json vlaunch reads. Field
// names differ between families (n_routed_experts vs num_experts vs
// num_local_experts), so several spellings map to the same fact.
type hfConfig struct {
	// longcatTypeFromArch: model_type was absent and read from
	// LongCat-Flash's architecture (catalog/longcat.go).
	longcatTypeFromArch bool

	Architectures         []string `json:"architectures"`
	ModelType             string   `json:"model_type"`
	HiddenSize            int      `json:"hidden_size"`
	NumHiddenLayers       int      `json:"num_hidden_layers"`
	NumAttentionHeads     int      `json:"num_attention_heads"`
	NumKeyValueHeads      *int     `json:"num_key_value_heads"`
	HeadDim               *int     `json:"head_dim"`
	IntermediateSize      layerInt `json:"intermediate_size"`
	VocabSize             int      `json:"vocab_size"`
	MaxPositionEmbeddings int      `json:"max_position_embeddings"`
	TieWordEmbeddings     *bool    `json:"tie_word_embeddings"`
	AttentionBias         *bool    `json:"attention_bias"`
	UseQKNorm             *bool    `json:"use_qk_norm"`
	QKNormType            string   `json:"qk_norm_type"`
	RotaryDim             int      `json:"rotary_dim"`
	UseRoutingBias        *bool    `json:"use_routing_bias"`

	LinearNumKeyHeads     int    `json:"linear_num_key_heads"`
	LinearNumValueHeads   int    `json:"linear_num_value_heads"`
	LinearKeyHeadDim      int    `json:"linear_key_head_dim"`
	LinearValueHeadDim    int    `json:"linear_value_head_dim"`
	LinearConvKernelDim   int    `json:"linear_conv_kernel_dim"`
	FullAttentionInterval int    `json:"full_attention_interval"`
	AttnOutputGate        *bool  `json:"attn_output_gate"`
	MambaSSMDType         string `json:"mamba_ssm_dtype"`

	HybridOverridePattern           string `json:"hybrid_override_pattern"`
	MambaNumHeads                   int    `json:"mamba_num_heads"`
	MambaHeadDim                    int    `json:"mamba_head_dim"`
	SSMStateSize                    int    `json:"ssm_state_size"`
	NGroups                         int    `json:"n_groups"`
	ConvKernel                      int    `json:"conv_kernel"`
	UseConvBias                     *bool  `json:"use_conv_bias"`
	MambaSSMCacheDType              string `json:"mamba_ssm_cache_dtype"`
	AttentionHeadDim                int    `json:"attention_head_dim"`
	MoESharedExpertIntermediateSize int    `json:"moe_shared_expert_intermediate_size"`
	// MoELatentSize is Nemotron-3 Super/Ultra's latent MoE width;
	// LayersBlockType the newer spelling of hybrid_override_pattern.
	MoELatentSize   int      `json:"moe_latent_size"`
	LayersBlockType []string `json:"layers_block_type"`

	IntermediateSizeMLP    int      `json:"intermediate_size_mlp"`
	InterleaveMoELayerStep int      `json:"interleave_moe_layer_step"`
	AttentionChunkSize     int      `json:"attention_chunk_size"`
	SlidingWindowPattern   int      `json:"sliding_window_pattern"`
	PartialRotaryFactor    *float64 `json:"partial_rotary_factor"`
	TorchDType             string   `json:"torch_dtype"`
	DType                  string   `json:"dtype"`

	QLoraRank     *int `json:"q_lora_rank"`
	KVLoraRank    int  `json:"kv_lora_rank"`
	QKNopeHeadDim int  `json:"qk_nope_head_dim"`
	QKRopeHeadDim int  `json:"qk_rope_head_dim"`
	VHeadDim      int  `json:"v_head_dim"`

	NRoutedExperts               int       `json:"n_routed_experts"`
	NumExperts                   layerInt  `json:"num_experts"`
	NumLocalExperts              int       `json:"num_local_experts"`
	NumExpertsPerTok             int       `json:"num_experts_per_tok"`
	ExpertsPerToken              int       `json:"experts_per_token"`
	MoEIntermediateSize          layerInt  `json:"moe_intermediate_size"`
	NSharedExperts               int       `json:"n_shared_experts"`
	SharedExpertIntermediateSize int       `json:"shared_expert_intermediate_size"`
	FirstKDenseReplace           int       `json:"first_k_dense_replace"`
	MoELayerFreq                 layerFreq `json:"moe_layer_freq"`
	DecoderSparseStep            int       `json:"decoder_sparse_step"`
	MLPOnlyLayers                []int     `json:"mlp_only_layers"`
	NGroup                       int       `json:"n_group"`
	TopKGroup                    int       `json:"topk_group"`
	TopKMethod                   string    `json:"topk_method"`

	SlidingWindow    *int     `json:"sliding_window"`
	UseSlidingWindow *bool    `json:"use_sliding_window"`
	LayerTypes       []string `json:"layer_types"`

	// DraftVocabSize is an EAGLE-3 head's own (smaller) vocabulary.
	DraftVocabSize int `json:"draft_vocab_size"`

	// Gemma 4 (catalog/gemma4.go).
	GlobalHeadDim           int   `json:"global_head_dim"`
	NumGlobalKVHeads        int   `json:"num_global_key_value_heads"`
	AttentionKEqV           *bool `json:"attention_k_eq_v"`
	EnableMoEBlock          bool  `json:"enable_moe_block"`
	HiddenSizePerLayerInput int   `json:"hidden_size_per_layer_input"`
	NumKVSharedLayers       int   `json:"num_kv_shared_layers"`
	TopKExperts             int   `json:"top_k_experts"`

	// MiMo-V2-Flash (catalog/mimo.go).
	HybridLayerPattern      []int `json:"hybrid_layer_pattern"`
	SlidingWindowSize       int   `json:"sliding_window_size"`
	SWANumAttentionHeads    int   `json:"swa_num_attention_heads"`
	SWANumKVHeads           int   `json:"swa_num_key_value_heads"`
	SWAHeadDim              int   `json:"swa_head_dim"`
	SWAVHeadDim             int   `json:"swa_v_head_dim"`
	AddSWAAttentionSinkBias *bool `json:"add_swa_attention_sink_bias"`
	// MoERouterDType is the gate's dtype vLLM's MiMoV2MoE builds
	// (moe_router_dtype, float32 when absent).
	MoERouterDType string `json:"moe_router_dtype"`
	// RopeTheta and SWARopeTheta: MiMo-V2's two RoPE bases (full and
	// sliding-window layers), each its own cos/sin cache in vLLM.
	// Step-3.x writes rope_theta as a list per layer: not a number, 0.
	RopeTheta    looseFloat `json:"rope_theta"`
	SWARopeTheta looseFloat `json:"swa_rope_theta"`

	// DeepSeek-V4 (catalog/deepseekv4.go).
	CompressRatios []int  `json:"compress_ratios"`
	OGroups        int    `json:"o_groups"`
	OLoraRank      int    `json:"o_lora_rank"`
	HCMult         int    `json:"hc_mult"`
	NumHashLayers  int    `json:"num_hash_layers"`
	ExpertDType    string `json:"expert_dtype"`

	IndexTopK    int `json:"index_topk"`
	IndexNHeads  int `json:"index_n_heads"`
	IndexHeadDim int `json:"index_head_dim"`
	// IndexCache (GLM-5.2): which layers keep their own indexer
	// (catalog/indexcache.go).
	IndexTopKFreq       int     `json:"index_topk_freq"`
	IndexTopKPattern    *string `json:"index_topk_pattern"`
	IndexSkipTopKOffset *int    `json:"index_skip_topk_offset"`

	NumNextNPredictLayers int                    `json:"num_nextn_predict_layers"`
	QuantizationConfig    map[string]interface{} `json:"quantization_config"`
	RopeScaling           map[string]interface{} `json:"rope_scaling"`
	// RopeParameters is transformers v5's replacement of rope_scaling and
	// rope_theta (one map with rope_type, rope_theta, factor …, or one such
	// map per layer type).
	RopeParameters map[string]interface{} `json:"rope_parameters"`

	// TextConfig and VisionConfig are a multimodal wrapper's language model
	// and vision encoder (Qwen3-VL, Llama-4, Kimi-K2.5, Gemma-3 …).
	TextConfig   json.RawMessage `json:"text_config"`
	VisionConfig json.RawMessage `json:"vision_config"`
}

// nativeModelTypes are the model_type values vLLM loads without
// --trust-remote-code (its own config classes or transformers').
var nativeModelTypes = map[string]bool{
	"llama": true, "qwen2": true, "qwen3": true, "qwen2_moe": true, "qwen3_moe": true,
	"mixtral": true, "mistral": true, "deepseek_v2": true, "deepseek_v3": true, "gpt_oss": true,
	"deepseek_v32": true, "glm4_moe": true, "qwen3_vl": true, "qwen3_vl_moe": true, "glm_moe_dsa": true,
	"qwen3_next": true, "qwen3_5": true, "qwen3_5_moe": true, "nemotron_h": true, "llama4": true, "llama4_text": true, "gemma3": true, "gemma3_text": true,
	"gemma4": true, "gemma4_text": true,
	// vLLM registers its own DeepseekV4Config (_CONFIG_REGISTRY,
	// vllm/transformers_utils/config.py).
	"deepseek_v4": true,
	// transformers' Ernie4_5_MoeConfig (v4.54 and later), Olmo2Config and
	// Olmo3Config.
	"ernie4_5_moe": true, "olmo2": true, "olmo3": true,
	// transformers' GraniteMoeHybridConfig.
	"granitemoehybrid": true,
	// transformers' HunYuanMoEV1Config / HunYuanDenseV1Config (Hunyuan-A13B's
	// own config.json says hunyuan, with configuration_hunyuan.py in
	// auto_map: remote code).
	"hunyuan_v1_moe": true, "hunyuan_v1_dense": true,
	"minimax_m2": false, // configuration_minimax_m2.py in auto_map: vLLM's recipe passes --trust-remote-code
}

// MaxHFConfigBytes bounds a config.json read from disk. Real ones are a few
// KiB (the largest in the catalog, with its quantization settings, is
// 14 KiB); anything near this cap is not a model config.
const MaxHFConfigBytes = 4 << 20

// ReadHFConfigFile reads a config.json from disk: a regular file (a FIFO or
// device is refused without blocking) of at most MaxHFConfigBytes.
func ReadHFConfigFile(path string) ([]byte, error) {
	return inputfile.Read(path, MaxHFConfigBytes)
}

// LoadHFConfig reads and parses a config.json file from disk, with the
// hf_quant_config.json next to it when there is one.
func LoadHFConfig(path string) (*Model, error) {
	data, err := ReadHFConfigFile(path)
	if err != nil {
		return nil, err
	}
	hfq, err := LoadHFQuantConfigNextTo(path)
	if err != nil {
		return nil, err
	}
	return ParseHFConfigWithQuant(data, hfq)
}

// ParseHFConfig turns a Hugging Face config.json into a Model. It rejects
// configs that lack the fields the memory and compute model need.
//
// The file is read as vLLM reads it, with Python's json: the bare NaN,
// Infinity and -Infinity it accepts (Nemotron-H's time_step_limit) are read
// as null. A multimodal wrapper (text_config) is read as its language
// model; see readWrapper.
func ParseHFConfig(data []byte) (*Model, error) {
	return ParseHFConfigWithQuant(data, nil)
}

// ParseHFConfigWithQuant is ParseHFConfig for a checkpoint that also ships
// a ModelOpt hf_quant_config.json (hfQuant; nil without one). As in vLLM,
// the file counts only when config.json (or its text_config) has no
// quantization_config of its own.
func ParseHFConfigWithQuant(data, hfQuant []byte) (*Model, error) {
	data = pythonJSON(data)
	var top hfConfig
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("config.json is not valid JSON for a model config: %w", err)
	}
	c, w, err := readWrapper(&top, data)
	if err != nil {
		return nil, err
	}
	c.minimaxM3Text(w)
	c.gemma3Defaults()
	c.nemotronDefaults()
	c.longcatLayers(w.text)
	if err := c.check(w); err != nil {
		return nil, err
	}
	family := c.ModelType
	if f, ok := textModelFamilies[c.ModelType]; ok {
		family = f
	}
	m := &Model{
		ModelType: family, HiddenSize: c.HiddenSize, NumLayers: c.NumHiddenLayers,
		NumHeads: c.NumAttentionHeads, IntermediateSize: c.IntermediateSize.n, VocabSize: c.VocabSize,
		MaxPositionEmbeddings: c.MaxPositionEmbeddings, TorchDType: firstNonEmpty(c.TorchDType, c.DType, "bfloat16"),
		NumNextNPredictLayers: c.NumNextNPredictLayers, TrustRemoteCode: !nativeModelTypes[firstNonEmpty(w.modelType, c.ModelType)],
		DraftVocabSize: max(c.DraftVocabSize, 0),
	}
	if family != c.ModelType {
		m.TextModelType = c.ModelType
	}
	if len(top.Architectures) > 0 {
		m.Architecture = top.Architectures[0]
	} else if len(c.Architectures) > 0 {
		m.Architecture = c.Architectures[0]
	}
	m.Wrapper = w.modelType
	c.ModelType = family // the family's rules below (QK norm, biases, router)
	c.fillAttention(m)
	c.fillMoE(m)
	c.fillSliding(m)
	c.fillHybrid(m)
	c.fillMamba(m)
	c.fillGranite(m, w.text)
	c.fillLlama4(m)
	c.fillDeepseekV4(m)
	c.fillGemma4(m)
	c.fillMiMo(m)
	c.fillStep3p5(m, w.text)
	c.fillKimiLinear(m, w.text)
	c.fillErnie45(m, w.text)
	c.fillOlmo(m)
	c.fillBailing(m, w.text)
	c.fillHunyuan(m, w.text)
	c.fillNemotronNAS(m, w.text)
	c.fillLongCat(m, w.text)
	c.fillMiniMaxM3(m, w.text)
	if !m.HunyuanFamily {
		m.ListKeys = c.listKeys()
	}
	m.Quant = parseQuant(c.QuantizationConfig)
	if c.QuantizationConfig != nil {
		m.Quant.Source = "config.json"
	} else if hfQuant != nil {
		q, err := ParseHFQuantConfig(hfQuant)
		if err != nil {
			return nil, err
		}
		m.Quant = parseQuant(q)
		m.Quant.Source = HFQuantConfigFile
	}
	if m.Quant.Format != "" || (m.Quant.Method == "fp8" && len(m.Quant.ModulesNotConverted) > 0) {
		// Block FP8 with ignored_layers: vLLM's Fp8Config keeps each
		// listed module unquantized (is_layer_skipped), module by module
		// (MiMo-V2.6 lists only o_proj: q/k/v FP8, o_proj BF16).
		m.Quant.Shares = m.computeQuantShares()
	}
	m.RopeScaling = parseRope(c.RopeScaling, c.RopeParameters)
	m.PartialRotaryFactor = partialRotary(c.PartialRotaryFactor, c.RopeParameters, c.ModelType)
	if m.PartialRotaryFactor == 0 && c.RotaryDim > 0 && c.RotaryDim < m.HeadDim {
		// MiniMax-M2 states rotary_dim (64 of head_dim 128); vLLM turns it
		// into partial_rotary_factor.
		m.PartialRotaryFactor = float64(c.RotaryDim) / float64(m.HeadDim)
	}
	m.Unmodelled = unmodelledFeatures(w.text, m)
	if w.vision != nil && len(m.Unmodelled) == 0 {
		m.Encoder = readEncoder(w, m.HiddenSize)
		m.Notes = append(m.Notes, visionNote(m, w))
	}
	return m, nil
}

func (c *hfConfig) check(w wrapper) error {
	var missing []string
	for name, v := range map[string]int{"hidden_size": c.HiddenSize, "num_hidden_layers": c.NumHiddenLayers,
		"num_attention_heads": c.NumAttentionHeads, "vocab_size": c.VocabSize} {
		if v <= 0 {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sortStrings(missing)
		if w.wrapped {
			return fmt.Errorf("config.json is a multimodal wrapper (%s) whose text_config lacks positive %s%s",
				w.describe(), strings.Join(missing, ", "), unknownTypeNote(c.ModelType, w.modelType))
		}
		return fmt.Errorf("config.json lacks positive %s%s", strings.Join(missing, ", "), unknownTypeNote(c.ModelType, ""))
	}
	if c.HiddenSize > 1<<20 || c.NumHiddenLayers > 10000 || c.NumAttentionHeads > 1<<14 || c.VocabSize > 1<<24 {
		return fmt.Errorf("config.json has implausible sizes (hidden %d, layers %d, heads %d, vocab %d)",
			c.HiddenSize, c.NumHiddenLayers, c.NumAttentionHeads, c.VocabSize)
	}
	return nil
}

func (c *hfConfig) fillAttention(m *Model) {
	m.NumKVHeads = m.NumHeads
	if c.NumKeyValueHeads != nil && *c.NumKeyValueHeads > 0 {
		m.NumKVHeads = *c.NumKeyValueHeads
	}
	m.HeadDim = m.HiddenSize / m.NumHeads
	if c.HeadDim != nil && *c.HeadDim > 0 {
		m.HeadDim = *c.HeadDim
	}
	m.TieWordEmbeddings = c.TieWordEmbeddings != nil && *c.TieWordEmbeddings
	// Qwen2 has q/k/v biases without an attention_bias key.
	m.AttentionBias = c.ModelType == "qwen2" || c.ModelType == "qwen2_moe"
	if c.AttentionBias != nil && c.ModelType != "qwen2" {
		m.AttentionBias = *c.AttentionBias
	}
	m.OProjBias = m.AttentionBias && !qkvBiasOnly[c.ModelType]
	// Qwen3 always normalises q and k; GLM-4.5 says so in use_qk_norm
	// (true for GLM-4.5, false for GLM-4.5-Air; vLLM's Glm4MoeAttention).
	m.QKNorm = c.ModelType == "qwen3" || c.ModelType == "qwen3_moe" || c.ModelType == "gemma3_text" || linearAttnFamilies[c.ModelType] || (c.UseQKNorm != nil && *c.UseQKNorm)
	m.QKNormAllHeads = m.QKNorm && c.QKNormType == "per_layer"
	m.AttentionSinks = c.ModelType == "gpt_oss"
	if c.KVLoraRank > 0 {
		m.KVLoraRank, m.QKNopeHeadDim, m.QKRopeHeadDim, m.VHeadDim = c.KVLoraRank, c.QKNopeHeadDim, c.QKRopeHeadDim, c.VHeadDim
		if c.QLoraRank != nil {
			m.QLoraRank = *c.QLoraRank
		}
		m.HeadDim = c.QKNopeHeadDim + c.QKRopeHeadDim
	}
	if c.IndexTopK > 0 {
		m.IndexTopK, m.IndexNHeads, m.IndexHeadDim = c.IndexTopK, c.IndexNHeads, c.IndexHeadDim
		m.IndexCache = c.indexCache()
	}
}

// qkvBiasOnly are the model types whose attention_bias puts biases on the
// q/k/v projections but not on o_proj: Qwen2's attention and vLLM's
// Glm4MoeAttention (o_proj is built with bias=False).
var qkvBiasOnly = map[string]bool{"qwen2": true, "qwen2_moe": true, "glm4_moe": true}

func (c *hfConfig) fillMoE(m *Model) {
	m.NumExperts = firstPositive(c.NRoutedExperts, c.NumExperts.n, c.NumLocalExperts)
	if m.NumExperts == 0 {
		return
	}
	m.ExpertsPerToken = firstPositive(c.NumExpertsPerTok, c.ExpertsPerToken)
	// Mixtral and gpt-oss give the per-expert width as intermediate_size.
	m.MoEIntermediateSize = firstPositive(c.MoEIntermediateSize.n, c.IntermediateSize.n)
	m.NumSharedExperts = c.NSharedExperts
	m.SharedExpertIntermediateSize = c.SharedExpertIntermediateSize
	m.FirstKDenseReplace = c.FirstKDenseReplace
	m.MoELayerFreq = firstPositive(c.MoELayerFreq.every, c.DecoderSparseStep, 1)
	if f := c.MoELayerFreq.perLayer; f != nil {
		c.perLayerMoE(m, f)
	}
	m.NGroup, m.TopKGroup = c.NGroup, c.TopKGroup
	// GLM-4.5's router always carries e_score_correction_bias, and vLLM
	// builds it as a float32 nn.Linear (vllm/model_executor/models/
	// glm4_moe.py, Glm4MoE: the gate and its bias in torch.float32).
	m.ScoreCorrectionBias = c.TopKMethod == "noaux_tc" || c.ModelType == "glm4_moe"
	m.RouterFP32 = c.ModelType == "glm4_moe"
	if c.ModelType == "minimax_m2" {
		// vLLM's MiniMaxM2MoE: the gate is a float32 ReplicatedLinear
		// without bias, and use_routing_bias adds a float32
		// e_score_correction_bias (vllm/model_executor/models/minimax_m2.py).
		m.RouterFP32 = true
		m.ScoreCorrectionBias = c.UseRoutingBias != nil && *c.UseRoutingBias
	}
	m.RouterBias = c.ModelType == "gpt_oss"
	m.ExpertBias = c.ModelType == "gpt_oss"
}

func (c *hfConfig) fillSliding(m *Model) {
	if c.SlidingWindow == nil || *c.SlidingWindow <= 0 {
		return
	}
	if c.UseSlidingWindow != nil && !*c.UseSlidingWindow {
		return
	}
	m.SlidingWindow = *c.SlidingWindow
	m.LayerTypes = c.LayerTypes
	if len(m.LayerTypes) == 0 {
		for i := 0; i < m.NumLayers; i++ {
			m.LayerTypes = append(m.LayerTypes, "sliding_attention")
		}
	}
}

func parseQuant(q map[string]interface{}) Quantization {
	if q == nil {
		return Quantization{}
	}
	out := Quantization{}
	out.Method, _ = q["quant_method"].(string)
	out.ActivationScheme, _ = q["activation_scheme"].(string)
	out.WeightBits = weightBits(q)
	if bs, ok := q["weight_block_size"].([]interface{}); ok {
		for _, v := range bs {
			if f, ok := v.(float64); ok && f > 0 && f < 1<<20 {
				out.WeightBlockSize = append(out.WeightBlockSize, int(f))
			}
		}
	}
	for _, key := range []string{"modules_to_not_convert", "ignored_layers", "ignore"} {
		out.ModulesNotConverted = append(out.ModulesNotConverted, stringList(q[key])...)
	}
	readQuantFormat(q, &out)
	readStoreDType(q, &out)
	return out
}

func firstPositive(vs ...int) int {
	for _, v := range vs {
		if v > 0 {
			return v
		}
	}
	return 0
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

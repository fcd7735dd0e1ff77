package catalog

import (
	"encoding/json"
	"fmt"
	"math"
)

// Meituan's LongCat-Flash (model_type longcat_flash, LongcatFlashForCausalLM)
// as vLLM's vllm/model_executor/models/longcat_flash.py builds it (read at
// vllm-project/vllm@055e47c28003156421365af985d676fc921cb075: FlashConfig,
// FlashDecoderLayer, LongcatMoe, LongcatRouter, FlashModel):
//
//   - FlashConfig: num_hidden_layers if the config states it, else
//     num_layers, decoder layers; intermediate_size = ffn_hidden_size (if
//     present, else intermediate_size, default 8192); moe_intermediate_size =
//     moe_intermediate_size, else expert_ffn_hidden_size, else
//     intermediate_size; top-k = moe_topk, else num_experts_per_tok.
//   - FlashDecoderLayer: two DeepseekV2MLAAttention (self_attn.0/1, each its
//     own KV cache), two input and two post-attention RMSNorms, two FlashMLP
//     (mlps.0/1: gate_up and down of intermediate_size) and one LongcatMoe.
//     forward: attn 0 → post-norm 0 → the MoE and mlps[0] both read that
//     output (the shortcut) → attn 1 → mlps[1] → + the MoE's output.
//   - LongcatMoe: a LongcatRouter (classifier hidden → n_routed_experts +
//     zero_expert_num, router_bias per config, and an
//     e_score_correction_bias of n_routed_experts + zero_expert_num, both
//     float32 when router_dtype is "float32", FlashConfig's default) and a
//     FusedMoE of n_routed_experts experts of moe_intermediate_size; the
//     zero experts hold no weights (zero_expert_type must be set: the
//     layer asserts it).
//
// vlaunch reads it as 2 × num_layers sub-layers: sub-layer 2i is attention
// 0, mlps[0] and the MoE (the dense MLP beside the experts, as Gemma 4's);
// sub-layer 2i+1 is attention 1 and mlps[1]. Each sub-layer holds two
// norms, one MLA attention (its KV cache) and one dense MLP, every second
// one the experts: the same weights, KV layers and GEMMs vLLM's layer runs.
// A pipeline stage boundary in vlaunch may fall between the two halves of a
// decoder layer, which vLLM's make_layers never does (PP sizes whole
// num_layers layers): the stages' sizes then differ by up to one half-layer.
//
// Routing: vLLM's ZeroExpertRouter (vllm/model_executor/layers/fused_moe/
// router/zero_expert_router.py at vllm-project/vllm@06d0369d75e060e83dffac3e0190ceff8fc37e12)
// picks top-k of all n_routed_experts + zero_expert_num, adds the zero
// experts' identity output itself (zero_experts_compute_triton) and remaps
// every zero-expert pick to real expert 0 with weight 0, so the fused-MoE
// kernels still run top-k pairs per token: a zero pick costs vLLM an
// expert-0 pair, not nothing. The parameters a token's output depends on
// vary with the picks; LongCat.ExpectedFFNExperts is the expected number of
// real (FFN) experts among them.
type LongCatFlash struct {
	// DecoderLayers is vLLM's FlashDecoderLayer count (num_layers).
	DecoderLayers int `json:"decoder_layers"`
	// ZeroExperts is zero_expert_num; ZeroExpertType zero_expert_type.
	ZeroExperts    int    `json:"zero_expert_num"`
	ZeroExpertType string `json:"zero_expert_type"`
	// ExpectedFFNExperts is the expected number of the top-k picks that are
	// real experts; ExpectedSource says where it comes from.
	ExpectedFFNExperts float64 `json:"expected_ffn_experts"`
	ExpectedSource     string  `json:"expected_ffn_experts_source"`
	// Problem is what of the config vlaunch does not size ("" when none).
	Problem string `json:"-"`
}

// UseLongCatCardAverage takes the expected number of real experts per
// token of the published LongCat-Flash shape from its model card's average
// activated parameters (27B; longCatCardActive). Off, or for any other
// shape, every pick is counted as a real expert (the card's upper bound,
// 31.3B for the published shape).
var UseLongCatCardAverage = true

// The published LongCat-Flash's activated parameters per token, as its
// Hugging Face model card (meituan-longcat/LongCat-Flash-Chat) and the
// technical report's abstract state them: "activates 18.6B∼31.3B (27B on
// average) per token depending on contextual demands" (quoted by
// aiportalx.com/meituan-inc/longcat-flash and Meituan's announcement,
// besthub.dev "LongCat-Flash-Chat: 560B MoE Model with 27B Active Params").
// The range is the parameters without the routed experts and without the
// input embedding (18.69B here) plus 0 to 12 real experts of 28 × 37.7M
// (catalog/longcat_test.go derives both ends); the card gives no expected
// expert count, so the average is turned into one.
const longCatCardActive = 27e9

// longCatCardShape reports whether m is the published LongCat-Flash's
// shape (the 560B model of the card: 28 layers, hidden 6144, 512 experts of
// 2048 plus 256 zero experts, top 12).
func (m *Model) longCatCardShape() bool {
	l := m.LongCat
	return l != nil && l.DecoderLayers == 28 && m.HiddenSize == 6144 && m.NumExperts == 512 && l.ZeroExperts == 256 &&
		m.ExpertsPerToken == 12 && m.MoEIntermediateSize == 2048 && m.IntermediateSize == 12288 && m.VocabSize == 131072
}

// longCatRaw is the longcat_flash keys FlashConfig reads beyond the common
// ones.
type longCatRaw struct {
	NumLayers           *int     `json:"num_layers"`
	NumHiddenLayers     *int     `json:"num_hidden_layers"`
	FFNHiddenSize       *int     `json:"ffn_hidden_size"`
	ExpertFFNHiddenSize *int     `json:"expert_ffn_hidden_size"`
	MoEIntermediateSize *int     `json:"moe_intermediate_size"`
	MoETopK             *int     `json:"moe_topk"`
	NumExpertsPerTok    *int     `json:"num_experts_per_tok"`
	NRoutedExperts      *int     `json:"n_routed_experts"`
	ZeroExpertNum       *int     `json:"zero_expert_num"`
	ZeroExpertType      *string  `json:"zero_expert_type"`
	RouterDType         *string  `json:"router_dtype"`
	RouterBias          *bool    `json:"router_bias"`
	DisableQuantModule  []string `json:"disable_quant_module"`
	QLoraRank           *int     `json:"q_lora_rank"`
	MaxPositions        *int     `json:"max_position_embeddings"`
}

func readLongCat(text map[string]json.RawMessage) (longCatRaw, error) {
	var r longCatRaw
	b, err := json.Marshal(text)
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(b, &r)
}

// longcatLayers sets num_hidden_layers to LongCat-Flash's sub-layers (two
// per num_layers decoder layer) before the common checks, so a config that
// states only num_layers (the published one) is read.
//
// A config.json without model_type whose architectures name
// LongcatFlashForCausalLM is read as longcat_flash: LongCat-Flash-Chat's
// published file states none (a public porting audit's config sweep, code
// search index id 56874154755, repository not named: "raw config omits
// model_type"), and the configuration class its auto_map loads (remote
// code) is model_type "longcat_flash", as vLLM's FlashConfig.
func (c *hfConfig) longcatLayers(text map[string]json.RawMessage) {
	if c.ModelType == "" {
		for _, a := range c.Architectures {
			if a == "LongcatFlashForCausalLM" {
				c.ModelType = "longcat_flash"
				c.longcatTypeFromArch = true
			}
		}
	}
	if c.ModelType != "longcat_flash" {
		return
	}
	r, err := readLongCat(text)
	if err != nil {
		return
	}
	layers := 0
	switch {
	case r.NumHiddenLayers != nil:
		layers = *r.NumHiddenLayers // FlashConfig prefers it (checked in fillLongCat)
	case r.NumLayers != nil:
		layers = *r.NumLayers
	}
	if layers > 0 && layers <= 5000 {
		c.NumHiddenLayers = 2 * layers
	}
}

// fillLongCat reads a longcat_flash config into m as FlashConfig does.
func (c *hfConfig) fillLongCat(m *Model, text map[string]json.RawMessage) {
	if c.ModelType != "longcat_flash" {
		return
	}
	l := &LongCatFlash{DecoderLayers: m.NumLayers / 2}
	m.LongCat = l
	r, err := readLongCat(text)
	if err != nil {
		l.Problem = "the LongCat-Flash keys (num_layers, ffn_hidden_size, expert_ffn_hidden_size, moe_topk, zero_expert_num …) are not of the types FlashConfig reads"
		return
	}
	pos := func(p *int) int {
		if p == nil || *p <= 0 {
			return 0
		}
		return *p
	}
	if r.NumHiddenLayers != nil && r.NumLayers != nil && *r.NumHiddenLayers != *r.NumLayers {
		l.Problem = fmt.Sprintf("num_hidden_layers %d beside num_layers %d: vLLM's FlashConfig builds num_hidden_layers decoder layers (each of two attentions), the checkpoint's layer count is num_layers", *r.NumHiddenLayers, *r.NumLayers)
		return
	}
	m.IntermediateSize = firstPositive(pos(r.FFNHiddenSize), c.IntermediateSize.n, 8192)
	m.MoEIntermediateSize = firstPositive(pos(r.MoEIntermediateSize), pos(r.ExpertFFNHiddenSize), m.IntermediateSize)
	m.ExpertsPerToken = firstPositive(pos(r.MoETopK), pos(r.NumExpertsPerTok))
	m.NumExperts = pos(r.NRoutedExperts)
	m.NumSharedExperts, m.SharedExpertIntermediateSize, m.FirstKDenseReplace, m.MoELayerFreq = 0, 0, 0, 1
	m.MoELayers = make([]bool, m.NumLayers)
	for i := range m.MoELayers {
		m.MoELayers[i] = i%2 == 0
	}
	if r.QLoraRank == nil && m.KVLoraRank > 0 {
		m.QLoraRank = 1536 // FlashConfig's default
	}
	if r.MaxPositions == nil {
		m.MaxPositionEmbeddings = 8192 // FlashConfig's default
	}
	m.ScoreCorrectionBias = true
	m.RouterBias = r.RouterBias != nil && *r.RouterBias
	m.RouterFP32 = r.RouterDType == nil || *r.RouterDType == "float32"
	m.NGroup, m.TopKGroup = 0, 0
	l.ZeroExperts = pos(r.ZeroExpertNum)
	if r.ZeroExpertType != nil {
		l.ZeroExpertType = *r.ZeroExpertType
	}
	switch {
	case m.NumExperts <= 0:
		l.Problem = "n_routed_experts absent or not positive: vLLM's LongcatMoe would read a per-layer num_experts list, which vlaunch does not size"
	case m.ExpertsPerToken <= 0 || m.ExpertsPerToken > m.NumExperts+l.ZeroExperts:
		l.Problem = "moe_topk (or num_experts_per_tok) absent, not positive or above the experts"
	case m.KVLoraRank <= 0:
		l.Problem = "kv_lora_rank absent: FlashDecoderLayer builds MLA attention (DeepseekV2MLAAttention) only"
	case l.ZeroExpertType != "identity":
		l.Problem = fmt.Sprintf("zero_expert_type %q: LongcatMoe asserts one is set and vLLM's zero_experts_compute_triton implements identity only", l.ZeroExpertType)
	case len(r.DisableQuantModule) > 0:
		l.Problem = fmt.Sprintf("disable_quant_module %v: vLLM keeps those modules out of the checkpoint's quantization, which vlaunch's per-module shares do not map for LongCat-Flash", r.DisableQuantModule)
	}
	l.ExpectedFFNExperts = float64(m.ExpertsPerToken)
	l.ExpectedSource = "every pick a real expert: no average stated for this shape (the upper bound)"
	if UseLongCatCardAverage && l.Problem == "" && m.longCatCardShape() {
		p := m.ParamCounts()
		base := p.Total - p.RoutedExperts - p.Embedding
		l.ExpectedFFNExperts = (longCatCardActive - base) / (float64(m.MoELayerCount()) * p.ExpertPerLayerEach)
		l.ExpectedSource = "the model card's 27B average activated parameters (range 18.6B–31.3B), less the parameters outside the routed experts and the input embedding, over one real expert of every MoE layer"
	}
	if c.longcatTypeFromArch {
		m.Notes = append(m.Notes, "config.json states no model_type: read as longcat_flash, the model_type of the configuration class LongcatFlashForCausalLM's auto_map loads")
	}
	m.Notes = append(m.Notes, fmt.Sprintf("LongCat-Flash: %d decoder layers read as %d sub-layers (each one MLA attention and one dense MLP; the experts every second one); %d zero-computation experts beside the %d real ones hold no weights; expected real experts per token %.2f of top-%d (%s); vLLM's ZeroExpertRouter runs every zero pick as a weight-0 pair on expert 0, so the fused MoE still computes %d pairs per token",
		l.DecoderLayers, m.NumLayers, l.ZeroExperts, m.NumExperts, l.ExpectedFFNExperts, m.ExpertsPerToken, l.ExpectedSource, m.ExpertsPerToken))
}

// longcatProblem is what of a longcat_flash config vlaunch does not size.
func (m *Model) longcatProblem() string {
	l := m.LongCat
	switch {
	case l == nil:
		return ""
	case l.Problem != "":
		return l.Problem + " (longcat_flash)"
	case m.Quant.Format != "" || len(m.Quant.ModulesNotConverted) > 0:
		return "a quantization that keeps modules out by name (ignore lists, 4-bit formats): LongCat-Flash's module names (self_attn.N, mlps.N) are not mapped (longcat_flash)"
	}
	return ""
}

// RouterOutputs is the router's outputs per MoE layer: the routed experts,
// and LongCat-Flash's zero experts beside them.
func (m *Model) RouterOutputs() int {
	if m.LongCat != nil {
		return m.NumExperts + m.LongCat.ZeroExperts
	}
	return m.NumExperts
}

// ExpectedFFNExpertsPerToken is the expected number of real (weight-
// holding) experts a token is routed to: top-k for every model but
// LongCat-Flash, whose zero experts compute nothing.
func (m *Model) ExpectedFFNExpertsPerToken() float64 {
	if m.LongCat != nil {
		return m.LongCat.ExpectedFFNExperts
	}
	return float64(m.ExpertsPerToken)
}

// ZeroExpertPairsRemapped reports whether vLLM runs a model's zero-expert
// picks as weight-0 pairs on expert 0 (LongCat-Flash: ZeroExpertRouter).
func (m *Model) ZeroExpertPairsRemapped() bool {
	return m.LongCat != nil && m.LongCat.ZeroExperts > 0
}

// LongCatExpertHitShare is the share of a MoE layer's experts one step over
// tokens tokens reads under vLLM's zero-expert remapping: expert 0 always
// (a zero pick lands there) and each of the others with probability
// 1 − (1 − k/E)^tokens, k the expected real picks per token (uniform
// routing over the E real experts).
func (m *Model) LongCatExpertHitShare(tokens float64) float64 {
	e := float64(m.NumExperts)
	if e <= 0 {
		return 0
	}
	k := m.ExpectedFFNExpertsPerToken()
	return 1/e + (1-1/e)*(1-math.Pow(1-k/e, tokens))
}

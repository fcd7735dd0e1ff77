package catalog

import (
	"fmt"
	"math"
)

// RopeScaling is the config's rope_scaling as far as vLLM's context limit
// reads it.
type RopeScaling struct {
	// Type is rope_type (or the older key type): yarn, dynamic, linear, llama3 …
	Type string `json:"type"`
	// Factor is the scaling factor (1 when the config gives none).
	Factor float64 `json:"factor"`
	// OriginalMax is original_max_position_embeddings (yarn's base length).
	OriginalMax int `json:"original_max_position_embeddings,omitempty"`
}

// parseRope reads the RoPE scaling from rope_scaling or, when a config has
// none (transformers v5 writes rope_parameters instead of rope_scaling and
// rope_theta), from rope_parameters: its rope_type "default" is plain RoPE
// (nil), any other type scales as rope_scaling's would. A rope_parameters
// given per layer type ({"full_attention": {...}, "sliding_attention":
// {...}}) is read for full attention, the layers that bound the context.
func parseRope(scaling, params map[string]interface{}) *RopeScaling {
	if scaling != nil {
		return parseRopeScaling(scaling)
	}
	if full, ok := params["full_attention"].(map[string]interface{}); ok {
		params = full
	}
	if r := parseRopeScaling(params); r != nil && r.Type != "default" {
		return r
	}
	return nil
}

// partialRotary is the share of a head's dimensions RoPE rotates: the
// config's partial_rotary_factor, else the one inside rope_parameters, else
// GLM-4.5's 0.5, which vLLM sets when neither says (glm4_moe.py:
// rope_parameters.setdefault("partial_rotary_factor", 0.5)); 0 means all.
func partialRotary(top *float64, params map[string]interface{}, modelType string) float64 {
	if top != nil && *top > 0 && *top <= 1 {
		return *top
	}
	if f, ok := params["partial_rotary_factor"].(float64); ok && f > 0 && f <= 1 {
		return f
	}
	if modelType == "glm4_moe" {
		return 0.5
	}
	return 0
}

// parseRopeScaling reads rope_scaling; nil when absent or without a type.
func parseRopeScaling(r map[string]interface{}) *RopeScaling {
	if r == nil {
		return nil
	}
	t, _ := r["rope_type"].(string)
	if t == "" {
		t, _ = r["type"].(string)
	}
	if t == "" {
		return nil
	}
	out := &RopeScaling{Type: t, Factor: 1}
	if f, ok := r["factor"].(float64); ok && f > 0 && !math.IsInf(f, 0) {
		out.Factor = f
	}
	if o, ok := r["original_max_position_embeddings"].(float64); ok && o > 0 && o < 1<<40 {
		out.OriginalMax = int(o)
	}
	return out
}

// ropeScaledTypes exclude the RoPE types whose max_position_embeddings
// already counts the scaling: vLLM skips the factor for them.
var ropeScaledTypes = map[string]bool{"su": true, "longrope": true, "llama3": true}

// MaxModelLen is the longest max_model_len vLLM accepts for the model
// without VLLM_ALLOW_LONG_MAX_MODEL_LEN: max_position_embeddings, times
// rope_scaling's factor unless the RoPE type already counts it (su,
// longrope, llama3), with yarn scaling original_max_position_embeddings
// instead (vLLM's _get_and_verify_max_len: vllm/config.py, later
// vllm/config/model.py). Qwen3 with YaRN factor 4 over 32,768 positions
// serves 131,072 tokens although max_position_embeddings is 40,960.
func (m *Model) MaxModelLen() int {
	r := m.RopeScaling
	if r == nil || ropeScaledTypes[r.Type] {
		return m.MaxPositionEmbeddings
	}
	base := m.MaxPositionEmbeddings
	if r.Type == "yarn" && r.OriginalMax > 0 {
		base = r.OriginalMax
	}
	n := float64(base) * r.Factor
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(n)
}

// MaxModelLenSource says where MaxModelLen comes from, for messages.
func (m *Model) MaxModelLenSource() string {
	r := m.RopeScaling
	if r == nil || ropeScaledTypes[r.Type] || m.MaxModelLen() == m.MaxPositionEmbeddings {
		return "max_position_embeddings"
	}
	base := fmt.Sprintf("max_position_embeddings %d", m.MaxPositionEmbeddings)
	if r.Type == "yarn" && r.OriginalMax > 0 {
		base = fmt.Sprintf("original_max_position_embeddings %d", r.OriginalMax)
	}
	return fmt.Sprintf("%s × rope_scaling %s factor %g", base, r.Type, r.Factor)
}

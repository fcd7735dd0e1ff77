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

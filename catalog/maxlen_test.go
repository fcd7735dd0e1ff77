package catalog

import "testing"

// TestMaxModelLenFollowsRopeScaling: the longest context is vLLM's
// derived max_model_len, which rope_scaling moves (yarn from its original
// length, dynamic/linear from max_position_embeddings) except for the RoPE
// types that already count the scaling.
func TestMaxModelLenFollowsRopeScaling(t *testing.T) {
	base := `{"model_type": "qwen3", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "max_position_embeddings": 40960%s}`
	for _, tt := range []struct {
		name, rope string
		want       int
	}{
		{"none", "", 40960},
		{"null", `, "rope_scaling": null`, 40960},
		{"yarn", `, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}`, 131072},
		{"yarn, old key", `, "rope_scaling": {"type": "yarn", "factor": 2, "original_max_position_embeddings": 32768}`, 65536},
		{"dynamic", `, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}`, 81920},
		{"llama3 counts it already", `, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}`, 40960},
		{"longrope counts it already", `, "rope_scaling": {"rope_type": "longrope", "factor": 4.0}`, 40960},
		{"default has no factor", `, "rope_scaling": {"rope_type": "default"}`, 40960},
		{"huge factor is bounded", `, "rope_scaling": {"rope_type": "linear", "factor": 1e300}`, 1<<31 - 1},
		// transformers v5: rope_parameters replaces rope_scaling and rope_theta.
		{"v5 default", `, "rope_parameters": {"rope_type": "default", "rope_theta": 1000000}`, 40960},
		{"v5 yarn", `, "rope_parameters": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768, "rope_theta": 1000000}`, 131072},
		{"v5 per layer type", `, "rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 2.0}, "sliding_attention": {"rope_type": "default"}}`, 81920},
		{"v5 theta only", `, "rope_parameters": {"rope_theta": 1000000}`, 40960},
		{"v5 garbage", `, "rope_parameters": {"rope_type": 7, "full_attention": "x"}`, 40960},
		{"rope_scaling wins over rope_parameters", `, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}, "rope_parameters": {"rope_type": "yarn", "factor": 8.0}`, 81920},
	} {
		m, err := ParseHFConfig([]byte(sprintf(base, tt.rope)))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := m.MaxModelLen(); got != tt.want {
			t.Errorf("%s: MaxModelLen = %d, want %d (%s)", tt.name, got, tt.want, m.MaxModelLenSource())
		}
	}
	for _, m := range Models() {
		if m.MaxModelLen() != m.MaxPositionEmbeddings {
			t.Errorf("%s: catalog model's derived length %d differs from max_position_embeddings %d", m.ID, m.MaxModelLen(), m.MaxPositionEmbeddings)
		}
	}
}

// TestPartialRotaryFactor: read from the config's top level, else from
// rope_parameters, else GLM-4.5's default vLLM applies; 0 for full RoPE.
func TestPartialRotaryFactor(t *testing.T) {
	base := `{"model_type": %q, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100%s}`
	for _, tt := range []struct {
		name, typ, extra string
		want             float64
	}{
		{"llama has none", "llama", "", 0},
		{"top level", "glm4_moe", `, "partial_rotary_factor": 0.25`, 0.25},
		{"inside rope_parameters", "glm4_moe", `, "rope_parameters": {"rope_type": "default", "partial_rotary_factor": 0.5}`, 0.5},
		{"glm4_moe default", "glm4_moe", "", 0.5},
		{"out of range ignored", "llama", `, "partial_rotary_factor": 7`, 0},
	} {
		m, err := ParseHFConfig([]byte(sprintf(base, tt.typ, tt.extra)))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if m.PartialRotaryFactor != tt.want {
			t.Errorf("%s: partial rotary %g, want %g", tt.name, m.PartialRotaryFactor, tt.want)
		}
	}
}

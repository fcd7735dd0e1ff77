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

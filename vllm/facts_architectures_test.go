package vllm

import "testing"

// TestArchitectureSupport: the recipes' minimum releases are Present, the
// releases before them unverified (never Absent: the first release with
// the architecture is unknown), and a model_type the table does not cover
// says so.
func TestArchitectureSupport(t *testing.T) {
	for _, tt := range []struct {
		release, modelType string
		want               Presence
	}{
		{"0.20.0", "deepseek_v4", Present},
		{"0.19.0", "deepseek_v4", Maybe},
		{"0.19.1", "gemma4_text", Present},
		{"0.18.0", "gemma4_text", Maybe},
		{"0.11.0", "mimo_v2_flash", Present},
		{"0.17.1", "nemotron_h", Present},
		{"0.16.0", "glm_moe_dsa", Present},
		{"0.15.1", "glm_moe_dsa", Maybe},
		{"0.17.0", "qwen3_5_moe_text", Present},
		{"0.16.0", "qwen3_5_moe_text", Maybe},
	} {
		r, _, err := ResolveString(tt.release)
		if err != nil {
			t.Fatal(err)
		}
		a, ok := r.Architecture(tt.modelType)
		if !ok || a.Serves != tt.want || a.Source == "" {
			t.Errorf("%s %s: %+v %v, want %v", tt.release, tt.modelType, a, ok, tt.want)
		}
	}
	if _, ok := Newest().Architecture("llama"); ok {
		t.Error("llama is not in the table")
	}
}

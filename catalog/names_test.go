package catalog

import "testing"

// TestSameModel: names of one model (hub id, local path, cache directory,
// dated or quantized variants, the older Meta- prefix) match; different
// models do not.
func TestSameModel(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"deepseek-ai/DeepSeek-R1-0528", "deepseek-r1", true},
		{"deepseek-ai/DeepSeek-R1-0528", "/models/DeepSeek-R1/", true},
		{"/root/.cache/huggingface/hub/models--Qwen--Qwen3-30B-A3B-FP8/snapshots/abc", "Qwen/Qwen3-30B-A3B", true},
		{"meta-llama/Meta-Llama-3.1-8B-Instruct", "llama-3.1-8b", true},
		{"deepseek-ai/DeepSeek-R1-0528", "meta-llama/Llama-3.1-8B-Instruct", false},
		{"deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-R1", false},
		{"Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-235B-A22B", false},
		{"", "llama-3.1-8b", false},
	} {
		if got := SameModel(tt.a, tt.b); got != tt.want {
			t.Errorf("SameModel(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if !MatchesAny("", []string{"x"}) || !MatchesAny("x", nil) {
		t.Error("nothing to compare must not be a mismatch")
	}
}

// TestNamedQuant: the format a pre-quantized checkpoint's name states
// (newuser40 finding 1), from the last path element only.
func TestNamedQuant(t *testing.T) {
	for name, want := range map[string]string{
		"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic":                 "fp8",
		"nvidia/DeepSeek-V3.1-NVFP4":                                  "nvfp4",
		"Qwen/Qwen3-8B-AWQ":                                           "int4",
		"neuralmagic/Meta-Llama-3.1-8B-Instruct-quantized.w8a8":       "int8",
		"/models/hub/models--Qwen--Qwen3-30B-A3B-FP8/snapshots/abc12": "fp8",
		"meta-llama/Llama-3.3-70B-Instruct":                           "",
		"/models/fp8/Llama-3.3-70B-Instruct":                          "",
		"openai/gpt-oss-120b":                                         "",
		"":                                                            "",
	} {
		if got := NamedQuant(name); got != want {
			t.Errorf("NamedQuant(%q) = %q, want %q", name, got, want)
		}
	}
}

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

// TestGPUAliasChoice (qa44b F12): an alias naming a family of catalog
// variants says which it picked and which it did not; each variant exists,
// and an id or an unambiguous alias is not a choice.
func TestGPUAliasChoice(t *testing.T) {
	picked, others, ok := GPUAliasChoice("H100")
	if !ok || picked != "h100-sxm" || len(others) != 1 || others[0] != "h100-pcie" {
		t.Errorf("h100: %q %v %v, want h100-sxm over [h100-pcie]", picked, others, ok)
	}
	for _, n := range []string{"h100-sxm", "h100-pcie", "h200-sxm", "a100-80gb"} {
		if _, _, ok := GPUAliasChoice(n); ok {
			t.Errorf("%s: reported as a choice", n)
		}
	}
	for alias, alts := range gpuAliasOthers {
		for _, id := range append([]string{gpuAliases[alias]}, alts...) {
			if _, err := LookupGPU(id); err != nil {
				t.Errorf("%s: variant %s is not in the catalog: %v", alias, id, err)
			}
		}
	}
}

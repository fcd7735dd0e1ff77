package catalog

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestQuantStatedTwice (qa38 finding 2): which quantization vLLM uses when
// a checkpoint states two, and the warning naming the one used and the one
// ignored (catalog/quantsource.go: vLLM's get_config reads
// hf_quant_config.json only without a top-level quantization_config, and
// then sets it as hf_config.quantization_config, which wins over a
// text_config's own). Before this, vlaunch used Kimi-K2.5's INT4
// text_config settings beside an NVFP4 hf_quant_config.json, silently.
func TestQuantStatedTwice(t *testing.T) {
	k25 := readFile(t, "testdata/hf/kimi-k2.5.json")                        // INT4 in text_config, none at the top
	k26 := readFile(t, "testdata/ckpt/nvidia--Kimi-K2.6-NVFP4/config.json") // ModelOpt NVFP4 at the top
	nvfp4File := readFile(t, "testdata/ckpt/nvidia--Kimi-K2.6-NVFP4/hf_quant_config.json")
	gptq := readFile(t, "testdata/hf/qwen2.5-32b-instruct-gptq-int4.json") // GPTQ INT4 at the top
	var k26top map[string]any
	if err := json.Unmarshal([]byte(k26), &k26top); err != nil {
		t.Fatal(err)
	}
	bothInConfig := editJSON(t, k25, func(c map[string]any) { c["quantization_config"] = k26top["quantization_config"] })
	cases := []struct {
		name         string
		cfg, hfq     string
		format       string
		source       string
		ignored      []string // substrings of the warning; nil: no warning
		notInWarning string
	}{
		{"wrapper INT4 text_config + NVFP4 file: the file", k25, nvfp4File, FormatNVFP4, HFQuantConfigFile,
			[]string{"uses hf_quant_config.json (modelopt NVFP4", "ignores config.json's text_config.quantization_config (compressed-tensors INT4 (16-bit scale per 32))"}, ""},
		{"top-level GPTQ INT4 + NVFP4 file: config.json", gptq, nvfp4File, FormatINT4, "config.json",
			[]string{"uses config.json's quantization_config (gptq INT4", "ignores hf_quant_config.json (modelopt NVFP4 (FP8 scale per 16))"}, "text_config"},
		{"wrapper top-level NVFP4 + INT4 text_config: the top", string(bothInConfig), "", FormatNVFP4, "config.json",
			[]string{"uses config.json's quantization_config (modelopt NVFP4", "ignores config.json's text_config.quantization_config (compressed-tensors INT4"}, HFQuantConfigFile},
		{"top-level + unreadable file: config.json", gptq, "{", FormatINT4, "config.json",
			[]string{"ignores hf_quant_config.json (unreadable, not read by vLLM either)"}, ""},
		{"wrapper INT4 alone", k25, "", FormatINT4, "config.json", nil, ""},
		{"NVFP4 file alone", readFile(t, "testdata/ckpt/nvidia--DeepSeek-V3.1-NVFP4/config.json"), nvfp4File, FormatNVFP4, HFQuantConfigFile, nil, ""},
		{"top-level NVFP4 alone", k26, "", FormatNVFP4, "config.json", nil, ""},
		// NVIDIA's Kimi-K2.6-NVFP4 ships both, saying the same: no warning.
		{"top-level NVFP4 + the same in the file", k26, nvfp4File, FormatNVFP4, "config.json", nil, ""},
		// nvidia/DeepSeek-V4-Flash-NVFP4: DeepSeek's FP8 config with
		// moe_quant_algo NVFP4 in config.json, ModelOpt MIXED_PRECISION in
		// the file, both quant_algo MIXED_PRECISION group 16: no warning.
		{"DeepSeek-V4-Flash-NVFP4: one export in two spellings", readFile(t, "testdata/ckpt/nvidia--DeepSeek-V4-Flash-NVFP4/config.json"),
			readFile(t, "testdata/ckpt/nvidia--DeepSeek-V4-Flash-NVFP4/hf_quant_config.json"), "", "config.json", nil, ""},
		{"the same exclusions but one more in the file", k26, strings.Replace(nvfp4File, `"exclude_modules": [`, `"exclude_modules": ["extra*", `, 1), FormatNVFP4, "config.json",
			[]string{"ignores hf_quant_config.json (modelopt NVFP4 (FP8 scale per 16))"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var hfq []byte
			if tc.hfq != "" {
				hfq = []byte(tc.hfq)
			}
			m, err := ParseHFConfigWithQuant([]byte(tc.cfg), hfq)
			if err != nil {
				t.Fatal(err)
			}
			q := m.Quant
			if q.Format != tc.format || q.Source != tc.source {
				t.Errorf("format %q from %q, want %q from %q", q.Format, q.Source, tc.format, tc.source)
			}
			if tc.ignored == nil && q.Ignored != "" {
				t.Errorf("unexpected warning %q", q.Ignored)
			}
			for _, s := range tc.ignored {
				if !strings.Contains(q.Ignored, s) {
					t.Errorf("warning %q lacks %q", q.Ignored, s)
				}
			}
			if tc.notInWarning != "" && strings.Contains(q.Ignored, tc.notInWarning) {
				t.Errorf("warning %q names %q", q.Ignored, tc.notInWarning)
			}
		})
	}
}

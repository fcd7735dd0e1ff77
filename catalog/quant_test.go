package catalog

import (
	"errors"
	"strings"
	"testing"
)

// TestQuantizedCheckpointsNotSizedAsAnotherFormat: a checkpoint whose
// weights vlaunch cannot size (8-bit GPTQ, mixed compressed-tensors widths,
// bitsandbytes, ModelOpt mixed precision or W4A8) is refused with what is
// not modelled; 8-bit compressed-tensors (FP8 or INT8), 4-bit GPTQ/AWQ/
// compressed-tensors, ModelOpt NVFP4 and the formats the catalog ships are
// modelled.
func TestQuantizedCheckpointsNotSizedAsAnotherFormat(t *testing.T) {
	base := `{"model_type": "qwen3_moe", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "quantization_config": %s}`
	ct := func(bits ...string) string {
		groups := []string{}
		for i, b := range bits {
			groups = append(groups, `"group_`+string(rune('0'+i))+`": {"targets": ["Linear"], "weights": {"num_bits": `+b+`, "type": "int", "strategy": "group", "group_size": 32}}`)
		}
		return `{"quant_method": "compressed-tensors", "format": "pack-quantized", "config_groups": {` + strings.Join(groups, ", ") + `}}`
	}
	for _, tt := range []struct {
		name, quant string
		refused     bool
		want        string
	}{
		// Kimi-K2-Thinking ships INT4 group-32 experts (compressed-tensors,
		// pack-quantized): sized since #23 (quantformat_test.go).
		{"compressed-tensors int4", ct("4"), false, ""},
		{"compressed-tensors mixed", ct("8", "4"), true, "(4/8-bit weights)"},
		{"compressed-tensors without widths", `{"quant_method": "compressed-tensors"}`, true, "without readable weight bit widths"},
		{"awq", `{"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm", "zero_point": true}`, false, ""},
		{"gptq", `{"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": false}`, false, ""},
		{"gptq 8-bit", `{"quant_method": "gptq", "bits": 8, "group_size": 128}`, true, `"gptq" (8-bit weights)`},
		{"bitsandbytes", `{"quant_method": "bitsandbytes", "load_in_4bit": true}`, true, `"bitsandbytes"`},
		{"modelopt nvfp4", `{"quant_method": "modelopt", "quant_algo": "NVFP4"}`, false, ""},
		{"modelopt mixed", `{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION"}`, true, `"MIXED_PRECISION"`},
		{"modelopt w4a8", `{"quant_method": "modelopt", "quant_algo": "W4A8_AWQ"}`, true, `"W4A8_AWQ"`},
		{"compressed-tensors int8 (W8A8)", ct("8"), false, ""},
		{"fp8 block", `{"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]}`, false, ""},
		{"mxfp4", `{"quant_method": "mxfp4"}`, false, ""},
		{"fbgemm_fp8", `{"quant_method": "fbgemm_fp8", "activation_scale_ub": 1200.0}`, false, ""},
	} {
		m, err := ParseHFConfig([]byte(sprintf(base, tt.quant)))
		if err != nil {
			t.Fatalf("%s: parse: %v", tt.name, err)
		}
		err = m.Modelled()
		if !tt.refused {
			if err != nil {
				t.Errorf("%s: refused: %v", tt.name, err)
			}
			continue
		}
		var ue *UnmodelledError
		if !errors.As(err, &ue) {
			t.Errorf("%s: accepted and sized as %s", tt.name, m.CheckpointDType())
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "checkpoint") {
			t.Errorf("%s: %q lacks %q or the word checkpoint", tt.name, err, tt.want)
		}
		if !strings.Contains(ue.Hint(), "fp8") {
			t.Errorf("%s: hint %q does not say which formats are sized", tt.name, ue.Hint())
		}
	}
}

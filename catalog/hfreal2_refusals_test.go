package catalog

import (
	"errors"
	"strings"
	"testing"
)

// TestHFReal2Refusals: the configs of aiconfigurator @095f58a5 vlaunch does
// not size are refused with what names the architecture (its model_type, or
// the wrapper's when its text_config states none), what vlaunch lacks and
// the nearest family it models — never a model_type "(none)", nor a family
// vlaunch does model named as lacking:
//
//   - SGLang's DeepSeek-V4-Flash-FP8 (model_type deepseek_ref): refused for
//     its model_type alone, nearest DeepSeek-V4. Before, it listed
//     "compressed sparse attention (DeepSeek-V4)" as lacking and gpt_oss as
//     nearest, though vlaunch sizes DeepSeek-V4.
//   - MiniMax-M3 and nvidia/MiniMax-M3-NVFP4 (wrapper minimax_m3_vl, a
//     text_config without model_type) were refused here for MiniMax-M3's
//     block-sparse attention; catalog/minimaxm3.go sizes them now
//     (TestMiniMaxM3Params, TestMiniMaxM3NVFP4). A minimax_m3 config
//     outside what vLLM's model builds is still refused
//     (TestMiniMaxM3Refusals).
//   - Llama-3.3-Nemotron-Super-49B-v1 (nemotron-nas) was refused here for
//     its per-layer block_configs; catalog/nemotronnas.go sizes it now
//     (TestNemotronSuper49B).
//   - aiconfigurator's Qwen3-32B-FP8-Static-PerTensor: a quantization_config
//     without quant_method (ModelOpt 0.31 fields, quant_algo outside a
//     "quantization" object), which vLLM resolves to no method; it was
//     sized as BF16 (61.0 GiB of weights) without a word.
//   - Granite-4.0-H-Small's trimmed copy (granitemoehybrid): catalog/granite.go
//     sizes the family now (TestGraniteHybridParams); this copy lacks its
//     layer_types and Mamba heads and is refused for those fields, as a file
//     of a family vlaunch models. Before, it was refused for the family,
//     nearest Nemotron-H; earlier still it said vlaunch lacked "Mamba-2
//     state per sequence", which it sizes, and named qwen3_moe.
//   - LongCat-Flash (longcat_flash, num_layers instead of num_hidden_layers)
//     was refused here; catalog/longcat.go sizes it now (TestLongCatFlashChat).
func TestHFReal2Refusals(t *testing.T) {
	for _, tt := range []struct {
		file string
		want []string
		not  []string
	}{
		{"testdata/hf/deepseek-v4-flash-fp8.sglang.verbatim.json",
			[]string{`model_type "deepseek_ref"`, "vlaunch lacks a model_type vLLM loads", "the nearest family it models is DeepSeek-V4 (deepseek_v4)"},
			[]string{"compress_ratios", "index_topk", "gpt_oss"}},
		{"testdata/hf/granite-4.0-h-small.trimmed.json",
			[]string{`model_type "granitemoehybrid"`, "layer_types missing", "vlaunch lacks the fields named above"},
			[]string{"vlaunch lacks Mamba-2 state", "qwen3_moe"}},
		{"testdata/hf/qwen3-32b-fp8-static-pertensor.aiconfigurator.verbatim.json",
			[]string{"vlaunch cannot model this checkpoint qwen3", "quantization_config without quant_method (8-bit weights)", "builds 16-bit layers"}, nil},
	} {
		m, err := LoadHFConfig(tt.file)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		err = m.Modelled()
		var ue *UnmodelledError
		if !errors.As(err, &ue) {
			t.Fatalf("%s: %v, want a refusal", tt.file, err)
		}
		msg := err.Error()
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", tt.file, msg, w)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(msg, w) {
				t.Errorf("%s: %q names %q", tt.file, msg, w)
			}
		}
	}
}

// TestUnknownTypeMissingFields: an unknown type
// without a known gap lists the modelled ones; a modelled type missing a
// field keeps the bare message (the file is incomplete).
func TestUnknownTypeMissingFields(t *testing.T) {
	// LongCat-Flash (num_layers) is sized since catalog/longcat.go
	// (TestLongCatSwiftShape); another unknown type keeps the refusal.
	for _, tt := range []struct{ config, want, not string }{
		{`{"model_type": "rwkv7", "hidden_size": 64}`, `model_type "rwkv7" is not one vlaunch models (it sizes only the families it has checked against vLLM's model files: bailing_moe`, ""},
		{`{"model_type": "llama", "hidden_size": 64}`, "config.json lacks positive num_attention_heads, num_hidden_layers, vocab_size", "is not one vlaunch models"},
	} {
		_, err := ParseHFConfig([]byte(tt.config))
		if err == nil || !strings.Contains(err.Error(), tt.want) || (tt.not != "" && strings.Contains(err.Error(), tt.not)) {
			t.Errorf("%s: %v, want %q", tt.config, err, tt.want)
		}
	}
}

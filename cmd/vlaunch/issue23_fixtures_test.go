package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// issue23Copies are the published config.json / hf_quant_config.json files
// the issue #23 scripts embed, each with the repository file it must equal
// byte for byte: the fixture carries the citation (its README row), the
// script only a copy (txtar ends a file with a newline where the fixture
// has none). docs/models-issue23.md links both.
var issue23Copies = []struct{ script, section, fixture string }{
	{"check_deepseek_v4_pro.txtar", "pro.json", "catalog/testdata/hf/deepseek-v4-pro.verbatim.json"},
	{"check_deepseek_v4_pro.txtar", "flash.json", "catalog/testdata/hf/deepseek-v4-flash.verbatim.json"},
	{"check_glm5.txtar", "fp8.json", "catalog/models/zai-org__GLM-5-FP8.json"},
	{"check_glm5.txtar", "bf16.json", "catalog/models/zai-org__GLM-5.json"},
	{"check_glm5.txtar", "g52.json", "catalog/testdata/hf/glm-5.2-fp8.verbatim.json"},
	{"check_minimax_m2.txtar", "mm.json", "catalog/models/MiniMaxAI__MiniMax-M2.5.json"},
	{"check_minimax_m2.txtar", "m27.json", "catalog/testdata/hf/minimax-m2.7.verbatim.json"},
	{"check_minimax_m3.txtar", "m3.json", "catalog/testdata/hf/minimax-m3.verbatim.json"},
	{"check_minimax_m3.txtar", "nv.json", "catalog/testdata/hf/minimax-m3-nvfp4.reconstructed.json"},
	{"check_gated_deltanet.txtar", "next.json", "catalog/models/Qwen__Qwen3-Next-80B-A3B-Thinking.json"},
	{"check_gated_deltanet.txtar", "q397.json", "catalog/testdata/hf/qwen3.5-397b-a17b.verbatim.json"},
	{"check_gated_deltanet.txtar", "q27.json", "catalog/testdata/hf/qwen3.5-27b.verbatim.json"},
	{"check_gated_deltanet.txtar", "q36.json", "catalog/testdata/hf/qwen3.6-35b-a3b.verbatim.json"},
	{"check_mixed_precision.txtar", "q36nv/config.json", "catalog/testdata/ckpt/nvidia--Qwen3.6-35B-A3B-NVFP4/config.json"},
	{"check_mixed_precision.txtar", "q36nv/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--Qwen3.6-35B-A3B-NVFP4/hf_quant_config.json"},
	{"check_mixed_precision.txtar", "q27nv/config.json", "catalog/testdata/ckpt/nvidia--Qwen3.6-27B-NVFP4/config.json"},
	{"check_mixed_precision.txtar", "q27nv/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--Qwen3.6-27B-NVFP4/hf_quant_config.json"},
	{"check_mixed_precision.txtar", "dsf/config.json", "catalog/testdata/ckpt/nvidia--DeepSeek-V4-Flash-NVFP4/config.json"},
	{"check_mixed_precision.txtar", "dsf/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--DeepSeek-V4-Flash-NVFP4/hf_quant_config.json"},
	{"check_kimi_k2x.txtar", "k25.json", "catalog/testdata/hf/kimi-k2.5.verbatim.json"},
	{"check_kimi_k2x.txtar", "k26/config.json", "catalog/testdata/ckpt/nvidia--Kimi-K2.6-NVFP4/config.json"},
	{"check_kimi_k2x.txtar", "k26/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--Kimi-K2.6-NVFP4/hf_quant_config.json"},
	{"check_longcat.txtar", "lc.json", "catalog/testdata/hf/longcat-flash-chat.reconstructed.json"},
	{"check_llama4.txtar", "scout.json", "catalog/testdata/hf/llama-4-scout-17b-16e-instruct.verbatim.json"},
	{"check_llama4.txtar", "maverick.json", "catalog/testdata/hf/llama-4-maverick-17b-128e-instruct.verbatim.json"},
	{"check_gemma4_31b.txtar", "g31.json", "catalog/testdata/hf/gemma-4-31b-it-nvfp4.verbatim.json"},
	{"check_gemma4_31b.txtar", "a4b.json", "catalog/testdata/hf/gemma-4-26b-a4b.verbatim.json"},
	{"check_nemotron3_family.txtar", "nano.json", "catalog/testdata/hf/nemotron-3-nano-30b-a3b.verbatim.json"},
	{"check_nemotron3_family.txtar", "ultra.json", "catalog/testdata/hf/nemotron-3-ultra-550b-a55b.verbatim.json"},
	{"check_nemotron3_family.txtar", "super/config.json", "catalog/testdata/ckpt/nvidia--NVIDIA-Nemotron-3-Super-120B-A12B-FP8/config.json"},
	{"check_nemotron3_family.txtar", "super/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--NVIDIA-Nemotron-3-Super-120B-A12B-FP8/hf_quant_config.json"},
	{"check_nemotron3_family.txtar", "l35/config.json", "catalog/testdata/ckpt/nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4/config.json"},
	{"check_nemotron3_family.txtar", "l35/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4/hf_quant_config.json"},
	{"generate_mimo_qwen3vl.txtar", "mimo.json", "catalog/testdata/hf/mimo-v2-flash.verbatim.json"},
	{"check_checkpoint_formats.txtar", "ds/config.json", "catalog/testdata/ckpt/nvidia--DeepSeek-V3.1-NVFP4/config.json"},
	{"check_checkpoint_formats.txtar", "ds/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--DeepSeek-V3.1-NVFP4/hf_quant_config.json"},
	{"check_checkpoint_formats.txtar", "q/config.json", "catalog/testdata/ckpt/nvidia--Qwen3-235B-A22B-NVFP4/config.json"},
	{"check_checkpoint_formats.txtar", "q/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--Qwen3-235B-A22B-NVFP4/hf_quant_config.json"},
	{"check_checkpoint_formats.txtar", "mm/config.json", "catalog/testdata/ckpt/nvidia--MiniMax-M2.5-NVFP4/config.json"},
	{"check_checkpoint_formats.txtar", "mm/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--MiniMax-M2.5-NVFP4/hf_quant_config.json"},
	{"check_checkpoint_formats.txtar", "glm/config.json", "catalog/testdata/ckpt/nvidia--GLM-5-NVFP4/config.json"},
	{"check_checkpoint_formats.txtar", "glm/hf_quant_config.json", "catalog/testdata/ckpt/nvidia--GLM-5-NVFP4/hf_quant_config.json"},
	{"generate_model_config_path.txtar", "mm.json", "catalog/models/MiniMaxAI__MiniMax-M2.5.json"},
	{"check_kimi_k3.txtar", "k3.json", "catalog/testdata/hf/kimi-k3.verbatim.json"},
	{"check_kimi_linear.txtar", "kl.json", "catalog/testdata/hf/kimi-linear-48b-a3b-instruct-awq-4bit.written.json"},
	{"check_awq.txtar", "awq.json", "catalog/testdata/hf/qwen2.5-72b-instruct-awq.json"},
	{"check_gptq.txtar", "gptq.json", "catalog/testdata/hf/qwen2.5-32b-instruct-gptq-int4.json"},
	{"check_ct_fp8.txtar", "ct.json", "catalog/testdata/hf/llama-3.1-8b-instruct-fp8-ct.reconstructed.json"},
	{"validate_issue23_refused.txtar", "s37.json", "catalog/testdata/hf/step-3.7-flash.aiconfigurator.json"},
	{"check_step3p7.txtar", "s37.json", "catalog/testdata/hf/step-3.7-flash.reconstructed.json"},
	{"check_nemotron_nas.txtar", "n49.json", "catalog/testdata/hf/llama-3.3-nemotron-super-49b-v1.verbatim.json"},
}

// TestIssue23FixturesVerbatim: every published config a #23 script
// validates, checks and generates from is the repository's cited copy, so
// the script tests the public file and not a hand-edited one.
func TestIssue23FixturesVerbatim(t *testing.T) {
	archives := map[string]*txtar.Archive{}
	for _, c := range issue23Copies {
		a, ok := archives[c.script]
		if !ok {
			var err error
			if a, err = txtar.ParseFile(filepath.Join("testdata", "script", c.script)); err != nil {
				t.Fatal(err)
			}
			archives[c.script] = a
		}
		want, err := os.ReadFile(filepath.Join("..", "..", c.fixture))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(want, []byte("\n")) {
			want = append(want, '\n')
		}
		found := false
		for _, f := range a.Files {
			if f.Name == c.section {
				found = true
				if !bytes.Equal(f.Data, want) {
					t.Errorf("%s: %s differs from %s (refresh the script's copy)", c.script, c.section, c.fixture)
				}
			}
		}
		if !found {
			t.Errorf("%s has no section %s", c.script, c.section)
		}
	}
}

package catalog

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadCkpt reads a checkpoint directory of testdata/ckpt as vLLM would:
// config.json and, next to it, hf_quant_config.json.
func loadCkpt(t *testing.T, dir string) *Model {
	t.Helper()
	m, err := LoadHFConfig(filepath.Join("testdata/ckpt", dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestModelOptNVFP4FromHFQuantConfig: nvidia/DeepSeek-V3.1-NVFP4's
// config.json has no quantization_config; its hf_quant_config.json
// (aiconfigurator @095f58a5, model_configs/nvidia--DeepSeek-V3.1-NVFP4_
// hf_quant_config.json) says NVFP4 group 16, FP8 KV cache, and excludes
// lm_head and the q_a/q_b/kv_a/kv_b projections of every layer. So o_proj,
// the dense MLPs, the shared and the routed experts are NVFP4, the rest BF16.
// Before #23 vlaunch never read the file and sized it as BF16 (3.3×).
func TestModelOptNVFP4FromHFQuantConfig(t *testing.T) {
	m := loadCkpt(t, "nvidia--DeepSeek-V3.1-NVFP4")
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	q := m.Quant
	if m.CheckpointDType() != FormatNVFP4 || q.GroupSize != 16 || q.KVCacheQuantAlgo != "FP8" || q.Source != HFQuantConfigFile || q.Method != "modelopt" {
		t.Fatalf("quantization %+v", q)
	}
	s := q.Shares
	wantAttn := map[string]float64{"self_attn.q_a_proj": 0, "self_attn.q_b_proj": 0, "self_attn.kv_a_proj_with_mqa": 0, "self_attn.kv_b_proj": 0, "self_attn.o_proj": 1}
	for k, v := range wantAttn {
		if got, ok := s.AttnModules[k]; !ok || got != v {
			t.Errorf("%s quantized in %v of the layers, want %v", k, got, v)
		}
	}
	if s.KVB != 0 || s.DenseMLP != 1 || s.Routed != 1 || s.Shared != 1 {
		t.Errorf("shares %+v", s)
	}

	// By hand from config.json: 61 layers (3 dense), 256 experts of 2048,
	// hidden 7168, MLA with q_lora 1536, kv_lora 512, 128 heads.
	const h, ql, kvl, nh = 7168.0, 1536.0, 512.0, 128.0
	bf16Attn := h*ql + ql*nh*192 + h*(kvl+64) + kvl*nh*256 + ql + kvl // q_a, q_b, kv_a, kv_b and the two latent norms
	oProj := nh * 128 * h
	expert := 3 * h * 2048
	nvfp4 := 61*oProj + 3*3*h*18432 + 58*(256+1)*expert
	bf16 := 61*bf16Attn + 2*129280*h + 58*(h*256+256) + 61*2*h + h
	want := 0.5625*nvfp4 + 2*bf16
	if got := m.FourBitWeightBytes(); math.Abs(got-want)/want > 1e-3 {
		t.Errorf("weights %.1f GB, want %.1f GB", got/1e9, want/1e9)
	}
	t.Logf("DeepSeek-V3.1-NVFP4 served weights: %.1f GB (%.1f GiB; BF16 would be %.1f GB)", want/1e9, want/(1<<30), 2*(nvfp4+bf16)/1e9)
}

// TestQuantizationConfigWinsOverHFQuantConfig: nvidia/MiniMax-M2.5-NVFP4
// ships both files; vLLM reads hf_quant_config.json only when config.json
// has no quantization_config (vllm/transformers_utils/config.py, get_config),
// and so does vlaunch. A damaged hf_quant_config.json is an error when it
// is the one read, and ignored when config.json says it all.
func TestQuantizationConfigWinsOverHFQuantConfig(t *testing.T) {
	m := loadCkpt(t, "nvidia--MiniMax-M2.5-NVFP4")
	if m.Quant.Source != "config.json" || m.Quant.Format != FormatNVFP4 || m.Quant.Method != "modelopt" {
		t.Fatalf("quantization %+v", m.Quant)
	}
	if s := m.Quant.Shares; s.Attention != 0 || s.Routed != 1 {
		t.Errorf("shares %+v: MiniMax-M2.5-NVFP4 excludes self_attn*, quantizes the experts", s)
	}
	cfg := readFile(t, "testdata/ckpt/nvidia--DeepSeek-V3.1-NVFP4/config.json")
	for _, bad := range []string{`{`, `{"producer": {}}`, `[]`, `{"quantization": 3}`} {
		if _, err := ParseHFConfigWithQuant([]byte(cfg), []byte(bad)); err == nil || !strings.Contains(err.Error(), HFQuantConfigFile) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	mm := readFile(t, "testdata/ckpt/nvidia--MiniMax-M2.5-NVFP4/config.json")
	if _, err := ParseHFConfigWithQuant([]byte(mm), []byte(`{`)); err != nil {
		t.Errorf("config.json's own quantization_config: the sibling file is not read, got %v", err)
	}
}

// TestQwen3NVFP4KeepsAttentionQuantized: nvidia/Qwen3-235B-A22B-NVFP4
// excludes only the routers (mlp.gate) and lm_head: attention and experts
// are NVFP4.
func TestQwen3NVFP4KeepsAttentionQuantized(t *testing.T) {
	m := loadCkpt(t, "nvidia--Qwen3-235B-A22B-NVFP4")
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	if s := m.Quant.Shares; m.CheckpointDType() != FormatNVFP4 || s.Attention != 1 || s.Routed != 1 {
		t.Errorf("%s, shares %+v", m.CheckpointDType(), s)
	}
}

// TestKimiINT4CheckpointBytes: Kimi-K2-Thinking and Kimi-K2.5 ship the
// same language model with INT4 experts: compressed-tensors pack-quantized,
// one group of 4-bit symmetric integers per 32 values with a BF16 scale,
// ignore = lm_head, self_attn, shared_experts and the dense MLP
// (moonshotai/Kimi-K2.5 config.json, aiconfigurator @095f58a5; Kimi-K2-
// Thinking's card describes the same native INT4 experts). 4 + 16/32 bits
// = 0.5625 bytes per expert weight; everything else BF16. The published
// size is ≈594 GB for Kimi-K2-Thinking (issue #23's brief) and "595GB" for
// Kimi-K2.5 (a secondary listing; K2.5 adds a ≈0.4 B-parameter vision
// tower, ≈0.8 GB): the text model computes to 594.3 GB.
func TestKimiINT4CheckpointBytes(t *testing.T) {
	m, err := ParseHFConfig([]byte(readFile(t, "testdata/hf/kimi-k2.5.json")))
	if err != nil {
		t.Fatal(err)
	}
	const h = 7168.0
	routed := 60 * 384 * 3 * h * 2048
	total := m.ParamCounts().Total
	want := 0.5625*routed + 2*(total-routed)
	got := m.FourBitWeightBytes()
	if math.Abs(got-want)/want > 1e-9 {
		t.Errorf("bytes %.2f GB, want %.2f GB", got/1e9, want/1e9)
	}
	if math.Abs(got/594e9-1) > 0.01 {
		t.Errorf("Kimi INT4 checkpoint %.1f GB, published ≈594 GB", got/1e9)
	}
	t.Logf("Kimi-K2.x INT4 text model: %.1f GB (published ≈594 GB)", got/1e9)

	// Kimi-K2-Thinking as its card describes it: Kimi-K2-Instruct's config
	// with the same quantization_config: the same bytes.
	var k25 map[string]json.RawMessage
	_ = json.Unmarshal([]byte(readFile(t, "testdata/hf/kimi-k2.5.json")), &k25)
	var text map[string]json.RawMessage
	_ = json.Unmarshal(k25["text_config"], &text)
	k2 := editJSON(t, readFile(t, "models/moonshotai__Kimi-K2-Instruct.json"), func(c map[string]any) {
		var qc any
		_ = json.Unmarshal(text["quantization_config"], &qc)
		c["quantization_config"] = qc
	})
	mk, err := ParseHFConfig(k2)
	if err != nil || mk.Modelled() != nil {
		t.Fatalf("%v %v", err, mk.Modelled())
	}
	if g := mk.FourBitWeightBytes(); math.Abs(g-got)/got > 1e-9 {
		t.Errorf("K2-Instruct + INT4 = %.2f GB, K2.5's text model %.2f GB", g/1e9, got/1e9)
	}
}

// TestQuantFormats: each format's bytes per weight from its definition.
func TestQuantFormats(t *testing.T) {
	for _, tt := range []struct {
		name, q string
		format  string
		group   int
		zero    bool
		bytes   float64
	}{
		{"modelopt nvfp4", `{"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16}`, FormatNVFP4, 16, false, 0.5 + 1.0/16},
		{"modelopt_fp4 default group", `{"quant_method": "modelopt_fp4", "quant_algo": "nvfp4"}`, FormatNVFP4, 16, false, 0.5625},
		{"modelopt fp8", `{"quant_method": "modelopt", "quant_algo": "FP8"}`, FormatModelOptFP8, 0, false, 0},
		{"ct nvfp4", `{"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"num_bits": 4, "type": "float", "group_size": 16}}}}`, FormatNVFP4, 16, false, 0.5625},
		{"ct w4a16 group 128 asym", `{"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"num_bits": 4, "type": "int", "group_size": 128, "symmetric": false}}}}`, FormatINT4, 128, true, 0.5 + 2.5/128},
		{"awq", `{"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": true}`, FormatINT4, 128, true, 0.5 + 2.5/128},
		{"gptq per channel", `{"quant_method": "gptq", "bits": 4, "group_size": -1}`, FormatINT4, 0, true, 0.5 + 2.5/64},
		// Kimi-K3's group (mxfp4-pack-quantized): an E8M0 byte per 32
		// values, no per-tensor scale; vLLM's _is_mxfp4 reads the
		// arguments (strategy group, group 32, symmetric), so the name
		// need not be there, and NVFP4's tensor_group at 32 stays NVFP4.
		{"ct mxfp4 (Kimi-K3)", `{"quant_method": "compressed-tensors", "format": "mxfp4-pack-quantized", "config_groups": {"group_0": {"format": "mxfp4-pack-quantized", "targets": ["Linear"],
			"weights": {"num_bits": 4, "type": "float", "group_size": 32, "strategy": "group", "symmetric": true, "scale_dtype": "torch.uint8"}}}}`, FormatMXFP4, 32, false, 0.5 + 1.0/32},
		{"ct mxfp4 by its arguments", `{"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"num_bits": 4, "type": "float", "group_size": 32, "strategy": "group"}}}}`, FormatMXFP4, 32, false, 0.53125},
		{"ct mxfp4 named at the top", `{"quant_method": "compressed-tensors", "format": "mxfp4-pack-quantized", "config_groups": {"g": {"weights": {"num_bits": 4, "type": "float", "group_size": 32}}}}`, FormatMXFP4, 32, false, 0.53125},
		{"ct nvfp4 of 32", `{"quant_method": "compressed-tensors", "config_groups": {"g": {"format": "nvfp4-pack-quantized", "weights": {"num_bits": 4, "type": "float", "group_size": 32, "strategy": "tensor_group"}}}}`, FormatNVFP4, 32, false, 0.53125},
		{"ct nvfp4 tensor_group", `{"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"num_bits": 4, "type": "float", "group_size": 16, "strategy": "tensor_group", "symmetric": true}}}}`, FormatNVFP4, 16, false, 0.5625},
		{"ct int8", `{"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"num_bits": 8, "type": "int"}}}}`, "", 0, false, 0},
		{"ct 4-bit groups disagree", `{"quant_method": "compressed-tensors", "config_groups": {"a": {"weights": {"num_bits": 4, "type": "int", "group_size": 32}}, "b": {"weights": {"num_bits": 4, "type": "int", "group_size": 128}}}}`, "", 0, false, 0},
	} {
		m, err := ParseHFConfig([]byte(sprintf(`{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128, "quantization_config": %s}`, tt.q)))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		q := m.Quant
		if q.Format != tt.format || q.GroupSize != tt.group || q.ZeroPoint != tt.zero || math.Abs(q.BytesPerParam(m.HiddenSize)-tt.bytes) > 1e-12 {
			t.Errorf("%s: %+v, %.5f B per weight; want %s group %d zero %v %.5f", tt.name, q, q.BytesPerParam(m.HiddenSize), tt.format, tt.group, tt.zero, tt.bytes)
		}
	}
}

// TestModuleMatcher: the three pattern kinds of the exclusion lists.
func TestModuleMatcher(t *testing.T) {
	mt := newModuleMatcher([]string{"lm_head", "model.layers.0.self_attn*", "re:.*shared_experts.*", "model.layers.3.mlp.experts", "re:(unclosed", "[x"})
	for name, want := range map[string]bool{
		"lm_head":                              true,
		"model.layers.0.self_attn.q_proj":      true,
		"model.layers.1.self_attn.q_proj":      false,
		"model.layers.10.self_attn.q_proj":     false,
		"model.layers.2.mlp.shared_experts.w1": true,
		"model.layers.3.mlp.experts.0.w1":      true,
		"model.layers.3.mlp.experts_extra":     false,
		"lm_head_2":                            false,
	} {
		if got := mt.excluded(name); got != want {
			t.Errorf("%s: excluded %v, want %v", name, got, want)
		}
	}
}

// FuzzHFQuantConfig: any hf_quant_config.json beside any config.json is
// read or refused without panicking, and what is read sizes to finite
// non-negative bytes with shares in [0, 1].
func FuzzHFQuantConfig(f *testing.F) {
	for _, dir := range []string{"nvidia--DeepSeek-V3.1-NVFP4", "nvidia--GLM-5-NVFP4", "nvidia--Qwen3-235B-A22B-NVFP4",
		"nvidia--Qwen3.6-35B-A3B-NVFP4", "nvidia--DeepSeek-V4-Flash-NVFP4"} {
		cfg, _ := os.ReadFile(filepath.Join("testdata/ckpt", dir, "config.json"))
		hq, _ := os.ReadFile(filepath.Join("testdata/ckpt", dir, "hf_quant_config.json"))
		f.Add(cfg, hq)
	}
	small := []byte(`{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100}`)
	f.Add(small, []byte(`{"quantization": {"quant_algo": "NVFP4", "exclude_modules": ["re:(", "*", "[", "model.layers.*.self_attn?"]}}`))
	f.Add(small, []byte(`{"quantization": {"quant_algo": "FP8", "group_size": -3, "exclude_modules": "x"}}`))
	f.Add(small, []byte(`{"quantization": {"quant_algo": "MIXED_PRECISION", "quantized_layers": {"model.layers.0": {"quant_algo": "NVFP4", "group_size": 0},
		"model.layers.1.self_attn": {"quant_algo": "fp8"}, "lm_head": {"quant_algo": "W4A16_NVFP4"}, "": null}, "exclude_modules": ["lm_head"]}}`))
	f.Add(small, []byte(`{"quantization": {"quant_algo": "MIXED_PRECISION", "quantized_layers": [1, 2]}}`))
	f.Add([]byte(ctMixed(`"config_groups": {"group_0": {"targets": ["re:.*self_attn.*", "lm_head"], "weights": {"num_bits": 8, "type": "float", "strategy": "channel"}},
		"group_1": {"targets": ["Linear", "re:("], "weights": {"num_bits": 4, "type": "int", "group_size": 0, "symmetric": false}}}, "ignore": ["re:.*gate$"]`)), []byte{})
	f.Fuzz(func(t *testing.T, cfg, hq []byte) {
		m, err := ParseHFConfigWithQuant(cfg, hq)
		if err != nil {
			return
		}
		if m.NumLayers > 200 || m.NumExperts > 1024 {
			return // sizes are computed per layer; keep each run short
		}
		b := m.FourBitWeightBytes()
		if math.IsNaN(b) || b < 0 {
			t.Fatalf("bytes %v", b)
		}
		if s := m.Quant.Shares; s != nil {
			for _, v := range []float64{s.Attention, s.KVB, s.DenseMLP, s.Routed, s.Shared, s.Indexer, m.AttentionQuantShare(1, 1)} {
				if !(v >= 0 && v <= 1) {
					t.Fatalf("share %v in %+v", v, s)
				}
			}
			for part, mp := range s.Mixed {
				// At most 16-bit (4-byte float32) and at least NVFP4's
				// smallest: never more than the unquantized storage.
				if !(mp.BytesPerParam > 0 && mp.BytesPerParam <= 4) {
					t.Fatalf("mixed %s: %v bytes per parameter", part, mp.BytesPerParam)
				}
			}
		}
	})
}

// TestNarrowerThanFP8: the 4-bit formats are narrower than FP8, the 8- and
// 16-bit ones are not (the what-if analysis never proposes FP8 for them).
func TestNarrowerThanFP8(t *testing.T) {
	for d, want := range map[string]bool{"mxfp4": true, "nvfp4": true, "int4": true, "fp8": false, "int8": false, "bf16": false, "": false} {
		if NarrowerThanFP8(d) != want {
			t.Errorf("%q: %v", d, !want)
		}
	}
}

package catalog

import (
	"math"
	"os"
	"strings"
	"testing"
)

// TestMixedPrecisionQwen36 reads nvidia/Qwen3.6-35B-A3B-NVFP4 (ModelOpt
// MIXED_PRECISION, config.json's quantization_config; catalog/testdata/ckpt)
// module by module and holds each component's bytes to a hand derivation
// from its config (hidden 2,048; 40 layers, every 4th full attention: 10
// full, 30 Gated DeltaNet; 16 query heads of 256 with the output gate, 2 KV
// heads; linear attention 16 key heads and 32 value heads of 128, conv 4;
// 256 experts and one shared expert of width 512; vocabulary 248,320):
//
//   - attention: FP8 (1 byte) for q/k/v/o of the full layers, 10 × (2,048 ×
//     8,192 + 2 × 2,048 × 512 + 4,096 × 2,048) = 272,629,760, and
//     in_proj_qkv / in_proj_z / out_proj of the linear ones, 30 × (2,048 ×
//     8,192 + 2,048 × 4,096 + 4,096 × 2,048) = 1,006,632,960; the rest of
//     the component (in_proj_b/a 2 × 2,048 × 32, conv1d 8,192 × 4, A_log,
//     dt_bias, norms: not in quantized_layers) BF16;
//   - routed experts: NVFP4 (W4A16_NVFP4, ½ byte + one FP8 scale per 16 =
//     0.5625 B), 40 × 256 × 3 × 2,048 × 512 = 32,212,254,720;
//   - shared expert: NVFP4, 40 × 3 × 2,048 × 512 = 125,829,120; its gate
//     (2,048 per layer) BF16;
//   - lm_head: NVFP4 (quantized_layers "lm_head"), 248,320 × 2,048 =
//     508,559,360; embeddings, routers and norms BF16.
func TestMixedPrecisionQwen36(t *testing.T) {
	m, err := LoadHFConfig("testdata/ckpt/nvidia--Qwen3.6-35B-A3B-NVFP4/config.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatalf("refused: %v", err)
	}
	q := m.Quant
	if !q.IsMixedPrecision() || q.Format != FormatNVFP4 || q.GroupSize != 16 || q.Source != "config.json" {
		t.Fatalf("quantization %+v", q)
	}
	pc := m.ParamCounts()
	const fp8Attn = 272629760 + 1006632960
	for _, tc := range []struct {
		part          string
		params, bytes float64
		formats       map[string]float64
	}{
		{"attention", pc.Attention, fp8Attn + 2*(pc.Attention-fp8Attn), map[string]float64{FormatModelOptFP8: fp8Attn / pc.Attention}},
		{"routed", 32212254720, 32212254720 * 0.5625, map[string]float64{FormatNVFP4: 1}},
		{"shared", 125829120 + 40*2048, 125829120*0.5625 + 40*2048*2, map[string]float64{FormatNVFP4: 125829120 / (125829120 + 40*2048.0)}},
		{"lm_head", 508559360, 508559360 * 0.5625, map[string]float64{FormatNVFP4: 1}},
	} {
		mp, ok := q.Shares.Mixed[tc.part]
		if !ok {
			t.Errorf("%s: no mixed storage in %+v", tc.part, q.Shares.Mixed)
			continue
		}
		if got := tc.params * mp.BytesPerParam; math.Abs(got/tc.bytes-1) > 1e-9 {
			t.Errorf("%s: %.0f B, by hand %.0f B", tc.part, got, tc.bytes)
		}
		if len(mp.Formats) != len(tc.formats) {
			t.Errorf("%s: formats %v, want %v", tc.part, mp.Formats, tc.formats)
		}
		for f, want := range tc.formats {
			if math.Abs(mp.Formats[f]-want) > 1e-9 {
				t.Errorf("%s: %s share %v, want %v", tc.part, f, mp.Formats[f], want)
			}
		}
	}
	if pc.Attention-fp8Attn != 30*(2*2048*32+8192*4+2*32+128)+10*2*256 {
		t.Errorf("attention outside quantized_layers: %.0f parameters", pc.Attention-fp8Attn)
	}
	if pc.SharedExperts != 125829120+40*2048 || pc.LMHead != 508559360 || pc.RoutedExperts != 32212254720 {
		t.Errorf("parameter counts %+v", pc)
	}
	// The served text model: the components above plus embeddings,
	// routers and norms in BF16.
	want := fp8Attn + 2*(pc.Attention-fp8Attn) + (32212254720+125829120+508559360)*0.5625 + 40*2048*2 +
		2*(pc.Embedding+pc.Router+pc.Norms)
	if got := m.FourBitWeightBytes(); math.Abs(got/want-1) > 1e-9 {
		t.Errorf("weights %.0f B, by hand %.0f B", got, want)
	}
}

// TestMixedPrecisionHFQuantFileAgrees: the hf_quant_config.json beside
// Qwen3.6's config.json (ModelOpt 0.44.0's export, read by vLLM only when
// config.json has no quantization_config) names the same formats module by
// module, so it sizes the same bytes.
func TestMixedPrecisionHFQuantFileAgrees(t *testing.T) {
	dir := "testdata/ckpt/nvidia--Qwen3.6-35B-A3B-NVFP4/"
	a, err := LoadHFConfig(dir + "config.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg := readTestFile(t, dir+"config.json")
	hq := readTestFile(t, dir+HFQuantConfigFile)
	// config.json without its quantization_config: the hf_quant file rules.
	stripped := strings.Replace(string(cfg), `"quantization_config"`, `"quantization_config_removed"`, 1)
	b, err := ParseHFConfigWithQuant([]byte(stripped), hq)
	if err != nil {
		t.Fatal(err)
	}
	if b.Quant.Source != HFQuantConfigFile || !b.Quant.IsMixedPrecision() {
		t.Fatalf("hf_quant_config.json: %+v", b.Quant)
	}
	if x, y := a.FourBitWeightBytes(), b.FourBitWeightBytes(); x != y || x == 0 {
		t.Errorf("config.json %.0f B, hf_quant_config.json %.0f B", x, y)
	}
}

// TestDeepseekV4NVFP4Experts: nvidia/DeepSeek-V4-Flash-NVFP4 and
// -Pro-NVFP4 (aiconfigurator's copies, catalog/testdata/ckpt) keep
// DeepSeek's FP8 config with moe_quant_algo NVFP4 beside ModelOpt's keys
// (quant_algo MIXED_PRECISION, quantized_layers naming only
// layers.N.ffn.experts, config_groups, ignore): vLLM's DeepseekV4FP8Config
// loads the fp4 experts as NVFP4 and everything else as block FP8, so they
// are modelled, with NVFP4 experts; before, they were refused.
func TestDeepseekV4NVFP4Experts(t *testing.T) {
	for _, dir := range []string{"nvidia--DeepSeek-V4-Flash-NVFP4", "nvidia--DeepSeek-V4-Pro-NVFP4"} {
		m, err := LoadHFConfig("testdata/ckpt/" + dir + "/config.json")
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err != nil {
			t.Errorf("%s refused: %v", dir, err)
		}
		q := m.Quant
		if q.Method != "fp8" || q.MoEQuantAlgo != "NVFP4" || q.ExpertFormat != FormatNVFP4 || q.GroupSize != 16 ||
			m.CheckpointDType() != "fp8" || m.DSV4 == nil || m.DSV4.ExpertDType != "fp4" {
			t.Errorf("%s: %+v", dir, q)
		}
	}
}

// TestMixedPrecisionRefusals: a MIXED_PRECISION or moe_quant_algo config
// vlaunch cannot size is refused with what it cannot size, never sized as
// something else and never a panic.
func TestMixedPrecisionRefusals(t *testing.T) {
	small := `{"model_type": "qwen3_moe", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
		"head_dim": 16, "vocab_size": 100, "num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 32, "intermediate_size": 128, `
	for _, tt := range []struct{ quant, want string }{
		{`{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION"}`, "without a quantized_layers map"},
		{`{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": {}}`, "without a quantized_layers map"},
		{`{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": {"model.layers.0.mlp.experts": {"quant_algo": "W4A8_AWQ"}}}`,
			`model.layers.0.mlp.experts: "W4A8_AWQ"`},
		{`{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": {"model.layers.0.mlp.experts": "NVFP4"}}`,
			`model.layers.0.mlp.experts: ""`},
		{`{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": {"model.layers.0.mlp.experts": {"quant_algo": "NVFP4", "group_size": 16},
			"model.layers.1.mlp.experts": {"quant_algo": "NVFP4", "group_size": 32}}}`, "NVFP4 groups of 16 and 32"},
		{`{"quant_method": "modelopt", "quant_algo": "INT4_AWQ"}`, `quant_algo "INT4_AWQ"`},
		{`{"quant_method": "fp8", "weight_block_size": [128, 128], "moe_quant_algo": "IQ3_WIRE"}`, `moe_quant_algo "IQ3_WIRE"`},
		// Read and sized: FP8 attention, NVFP4 experts.
		{`{"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": {"model.layers.0.mlp.experts": {"quant_algo": "nvfp4"},
			"model.layers.0.self_attn.q_proj": {"quant_algo": "FP8"}}}`, ""},
	} {
		m, err := ParseHFConfig([]byte(small + `"quantization_config": ` + tt.quant + `}`))
		if err != nil {
			t.Fatalf("%s: %v", tt.quant, err)
		}
		err = m.Modelled()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.quant, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want a refusal naming %q", tt.quant, err, tt.want)
		}
	}
}

// TestMixedPrecisionLookup: a module's format resolves as vLLM's
// ModelOptMixedPrecisionConfig resolves it — the name itself, a module
// above it (the experts entry for one expert's projection), a key below it,
// either multimodal spelling — and a module it does not name is not
// quantized.
func TestMixedPrecisionLookup(t *testing.T) {
	var q Quantization
	readMixedPrecision(map[string]interface{}{"quantized_layers": map[string]interface{}{
		"model.language_model.layers.0.mlp.experts":       map[string]interface{}{"quant_algo": "NVFP4", "group_size": 16.0},
		"model.language_model.layers.0.self_attn.q_proj":  map[string]interface{}{"quant_algo": "FP8"},
		"model.layers.3.mlp.experts.7.down_proj":          map[string]interface{}{"quant_algo": "W4A16_NVFP4"},
		"language_model.model.layers.1.linear_attn.out_p": map[string]interface{}{"quant_algo": "FP8"},
	}}, &q)
	if !q.IsMixedPrecision() {
		t.Fatalf("not read: %+v", q)
	}
	for path, want := range map[string]string{
		"model.language_model.layers.0.mlp.experts.5.gate_proj": FormatNVFP4,
		"language_model.model.layers.0.self_attn.q_proj":        FormatModelOptFP8,
		"model.layers.3.mlp.experts":                            FormatNVFP4,
		"model.language_model.layers.0.self_attn.k_proj":        "",
		"model.language_model.layers.1.linear_attn.out_proj":    "",
		"model.language_model.layers.10.mlp.experts":            "",
	} {
		l, ok := q.mixedLookup(path)
		if ok != (want != "") || l.format != want {
			t.Errorf("%s: %q %v, want %q", path, l.format, ok, want)
		}
	}
}

func readTestFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ctMixed is a Qwen3-MoE-shaped config (hidden 1,024, 2 layers, 8 query
// heads and 2 KV heads of 128, 8 experts of width 256, vocabulary 1,000)
// with the compressed-tensors quantization_config given.
func ctMixed(quant string) string {
	return `{"model_type": "qwen3_moe", "hidden_size": 1024, "num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 2,
		"head_dim": 128, "vocab_size": 1000, "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 256, "intermediate_size": 2048,
		"torch_dtype": "bfloat16", "quantization_config": {"quant_method": "compressed-tensors", "format": "mixed-precision", ` + quant + `}}`
}

// TestCompressedTensorsMixedGroups: config groups of different formats
// (llm-compressor's FP8 attention + NVFP4 experts recipe, as
// RedHatAI/DeepSeek-V4-Flash-NVFP4-FP8 and Infatoshi/Qwen3.6-35B-A3B-NVFP4-
// FP8 describe theirs) are sized module by module by their targets, as
// vLLM's find_matched_target picks a module's group; by hand on ctMixed's
// shape: attention per layer q 1,024 × 1,024, k and v 1,024 × 256, o
// 1,024 × 1,024 = 2,621,440 weights, FP8 per channel 1 + 4 / 1,024 B; the
// experts 2 × 8 × 3 × 1,024 × 256 = 12,582,912 weights NVFP4 0.5625 B; the
// LM head (ignored, or no Linear class) BF16.
func TestCompressedTensorsMixedGroups(t *testing.T) {
	const attn, experts = 2 * 2621440.0, 12582912.0
	fp8 := 1 + 4/1024.0
	for _, tt := range []struct {
		name, quant         string
		attnB, routedB, lmB float64 // bytes per parameter of the module weights
	}{
		{"named targets", `"config_groups": {
			"group_0": {"targets": ["re:.*self_attn\\.(q|k|v|o)_proj$"], "weights": {"num_bits": 8, "type": "float", "strategy": "channel", "symmetric": true}},
			"group_1": {"targets": ["re:.*mlp\\.experts\\..*"], "weights": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16}}},
			"ignore": ["lm_head", "re:.*mlp\\.gate$"]`, fp8, 0.5625, 2},
		{"class target for the rest", `"config_groups": {
			"group_0": {"targets": ["re:.*self_attn\\..*"], "weights": {"num_bits": 8, "type": "float", "strategy": "tensor"}},
			"group_1": {"targets": ["Linear"], "weights": {"num_bits": 4, "type": "float", "group_size": 16}}},
			"ignore": []`, 1, 0.5625, 2},
		{"MXFP4 experts beside FP8 attention", `"config_groups": {
			"group_0": {"targets": ["re:.*self_attn\\.(q|k|v|o)_proj$"], "weights": {"num_bits": 8, "type": "float", "strategy": "channel", "symmetric": true}},
			"group_1": {"format": "mxfp4-pack-quantized", "targets": ["re:.*mlp\\.experts\\..*"], "weights": {"num_bits": 4, "type": "float", "strategy": "group", "group_size": 32, "symmetric": true}}},
			"ignore": ["lm_head", "re:.*mlp\\.gate$"]`, fp8, 0.5 + 1.0/32, 2},
		{"INT4 experts, attention ignored", `"config_groups": {
			"group_0": {"targets": ["re:.*mlp\\.experts.*"], "weights": {"num_bits": 4, "type": "int", "group_size": 128, "symmetric": false}},
			"group_1": {"targets": ["re:.*o_proj$"], "weights": {"num_bits": 8, "type": "float", "strategy": "block", "block_structure": [128, 128]}}},
			"ignore": ["re:.*self_attn.*"]`, 2, 0.5 + 2.5/128, 2},
	} {
		m, err := ParseHFConfig([]byte(ctMixed(tt.quant)))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if err := m.Modelled(); err != nil {
			t.Errorf("%s: refused: %v", tt.name, err)
			continue
		}
		pc := m.ParamCounts()
		mix := m.Quant.Shares.Mixed
		// Attention's norms (q/k norms) stay BF16 around the projections.
		wantAttn := attn*tt.attnB + (pc.Attention-attn)*2
		if got := pc.Attention * mix["attention"].BytesPerParam; tt.attnB != 2 && math.Abs(got/wantAttn-1) > 1e-9 {
			t.Errorf("%s: attention %.0f B, by hand %.0f B", tt.name, got, wantAttn)
		}
		if _, ok := mix["attention"]; tt.attnB == 2 && ok {
			t.Errorf("%s: attention quantized: %+v", tt.name, mix["attention"])
		}
		if got := pc.RoutedExperts * mix["routed"].BytesPerParam; math.Abs(got/(experts*tt.routedB)-1) > 1e-9 || pc.RoutedExperts != experts {
			t.Errorf("%s: experts %.0f B, by hand %.0f B", tt.name, got, experts*tt.routedB)
		}
		if _, ok := mix["lm_head"]; ok {
			t.Errorf("%s: lm_head quantized", tt.name)
		}
	}
	// The INT4-experts case: o_proj block FP8, q/k/v ignored.
	m, _ := ParseHFConfig([]byte(ctMixed(`"config_groups": {
		"group_0": {"targets": ["re:.*mlp\\.experts.*"], "weights": {"num_bits": 4, "type": "int", "group_size": 128, "symmetric": false}},
		"group_1": {"targets": ["re:.*o_proj$"], "weights": {"num_bits": 8, "type": "float", "strategy": "block"}}}, "ignore": ["re:.*(q|k|v)_proj$"]`)))
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	pc := m.ParamCounts()
	want := 2*1048576*(1+4/16384.0) + (pc.Attention-2*1048576)*2
	if got := pc.Attention * m.Quant.Shares.Mixed["attention"].BytesPerParam; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("o_proj block FP8: attention %.0f B, by hand %.0f B", got, want)
	}
	if m.CheckpointDType() != FormatINT4 {
		t.Errorf("dtype %s", m.CheckpointDType())
	}
}

// TestCompressedTensorsMixedRefusals: groups of different formats that
// cannot be sized module by module are refused, saying which group.
func TestCompressedTensorsMixedRefusals(t *testing.T) {
	nv := `{"targets": ["re:.*experts.*"], "weights": {"num_bits": 4, "type": "float", "group_size": 16}}`
	for _, tt := range []struct{ quant, want string }{
		{`"config_groups": {"group_0": {"weights": {"num_bits": 8, "type": "float"}}, "group_1": ` + nv + `}`, `group "group_0" without weights or targets`},
		{`"config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 2, "type": "int"}}, "group_1": ` + nv + `}`, "(2/4-bit weights)"},
		{`"config_groups": {"group_0": {"targets": ["re:(?!.*experts).*"], "weights": {"num_bits": 8, "type": "float"}}, "group_1": ` + nv + `}`, "a regex vlaunch cannot read"},
		{`"config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 8, "type": "float", "strategy": "token"}}, "group_1": ` + nv + `}`, "strategy token"},
	} {
		m, err := ParseHFConfig([]byte(ctMixed(tt.quant)))
		if err != nil {
			t.Fatalf("%s: %v", tt.quant, err)
		}
		if err := m.Modelled(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a refusal naming %q", tt.quant, err, tt.want)
		}
	}
}

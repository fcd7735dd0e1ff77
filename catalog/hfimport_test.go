package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMultimodalWrapperReadsTextConfig: a wrapper's language model is read
// from text_config before any field check. Qwen3-VL-235B-A22B's text model
// is Qwen3-235B-A22B's (vLLM: Qwen3MoeLLMModel(Qwen3MoeModel)), so it is
// sized exactly as the catalog's Qwen3-235B-A22B, with a note that the
// vision encoder is not counted.
func TestMultimodalWrapperReadsTextConfig(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/qwen3-vl-235b-a22b-instruct.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatalf("refused: %v", err)
	}
	if m.ModelType != "qwen3_moe" || m.TextModelType != "qwen3_vl_moe_text" || m.Wrapper != "qwen3_vl_moe" ||
		m.Architecture != "Qwen3VLMoeForConditionalGeneration" || m.TrustRemoteCode || !m.QKNorm {
		t.Errorf("read as %+v", m)
	}
	q, _ := LookupModel("qwen3-235b-a22b")
	if got, want := m.ParamCounts().Total, q.ParamCounts().Total; got != want {
		t.Errorf("text model %.4g params, Qwen3-235B-A22B %.4g", got, want)
	}
	if m.NumKVHeads != 4 || m.HeadDim != 128 || m.NumLayers != 94 || m.MoELayerCount() != 94 {
		t.Errorf("attention %d kv heads × %d, %d layers (%d MoE)", m.NumKVHeads, m.HeadDim, m.NumLayers, m.MoELayerCount())
	}
	// 27 × (4 × 1152² + 2 × 1152 × 4304) = 0.411 B.
	if len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "vision encoder's weights (vision_config) are not counted") ||
		!strings.Contains(m.Notes[0], "about 0.41 B parameters") || !strings.Contains(m.Notes[0], `"qwen3_vl_moe"`) {
		t.Errorf("notes %q", m.Notes)
	}

	// The published file also carries Qwen3-VL's interleaved M-RoPE in
	// text_config (Qwen3-VL-30B-A3B's: mrope_section [24, 20, 20]); it has
	// no weights and no context scaling.
	withMRoPE := editJSON(t, readFile(t, "testdata/hf/qwen3-vl-235b-a22b-instruct.json"), func(c map[string]any) {
		c["text_config"].(map[string]any)["rope_scaling"] = map[string]any{"mrope_interleaved": true, "mrope_section": []any{24, 20, 20}, "rope_type": "default"}
	})
	mr, err := ParseHFConfig(withMRoPE)
	if err != nil || mr.Modelled() != nil || mr.ParamCounts().Total != m.ParamCounts().Total {
		t.Errorf("with M-RoPE: %v, %v", err, mr.Modelled())
	}
}

// TestKimiK25WrapperIsItsMLAModel: Kimi-K2.5's text_config is Kimi-K2's
// MLA MoE; as published its experts are INT4 (compressed-tensors, group 32,
// symmetric) and everything its ignore list names (attention, shared
// experts, the dense layer's MLP) stays 16-bit.
func TestKimiK25WrapperIsItsMLAModel(t *testing.T) {
	data := readFile(t, "testdata/hf/kimi-k2.5.json")
	m, err := ParseHFConfig([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatalf("refused: %v", err)
	}
	q := m.Quant
	if m.CheckpointDType() != FormatINT4 || q.GroupSize != 32 || q.ZeroPoint || q.Shares == nil {
		t.Fatalf("quantization %+v", q)
	}
	if s := *q.Shares; s.Attention != 0 || s.KVB != 0 || s.DenseMLP != 0 || s.Routed != 1 || s.Shared != 0 {
		t.Errorf("shares %+v: want only the routed experts INT4", s)
	}
	bf16 := editJSON(t, data, func(c map[string]any) { delete(c["text_config"].(map[string]any), "quantization_config") })
	m, err = ParseHFConfig(bf16)
	if err != nil || m.Modelled() != nil {
		t.Fatalf("unquantized: %v, %v", err, m.Modelled())
	}
	k2, _ := LookupModel("kimi-k2")
	if !m.IsMLA() || m.ModelType != "kimi_k2" || m.ParamCounts().Total != k2.ParamCounts().Total || !m.TrustRemoteCode {
		t.Errorf("read as %+v (%.4g params, Kimi-K2 %.4g)", m, m.ParamCounts().Total, k2.ParamCounts().Total)
	}
	if len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "about 0.41 B parameters") {
		t.Errorf("notes %q", m.Notes)
	}
}

// TestWrapperErrorsNameTheWrapper: a text_config vlaunch cannot read says
// so, naming the wrapper; the same fields missing from a plain config keep
// the plain message.
func TestWrapperErrorsNameTheWrapper(t *testing.T) {
	for _, tt := range []struct{ config, want string }{
		{`{"model_type": "llava", "architectures": ["LlavaForConditionalGeneration"], "text_config": {}}`,
			`multimodal wrapper (model_type "llava", LlavaForConditionalGeneration) whose text_config lacks positive hidden_size, num_attention_heads, num_hidden_layers, vocab_size`},
		{`{"model_type": "llava", "text_config": "llama"}`, `multimodal wrapper (model_type "llava") whose text_config is not a model config`},
		{`{"model_type": "llama", "hidden_size": 64}`, "config.json lacks positive num_attention_heads"},
	} {
		_, err := ParseHFConfig([]byte(tt.config))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.config, err, tt.want)
		}
	}
	// The wrapper's own fields fill what text_config leaves out.
	m, err := ParseHFConfig([]byte(`{"model_type": "w", "vocab_size": 100, "torch_dtype": "float16", "quantization_config": {"quant_method": "fp8"},
		"text_config": {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4}}`))
	if err != nil || m.VocabSize != 100 || m.TorchDType != "float16" || m.Quant.Method != "fp8" || m.Modelled() != nil || len(m.Notes) != 0 {
		t.Errorf("inherited: %v, %+v", err, m)
	}
}

// TestUnsupportedArchitecturesSayWhatIsMissing: each refusal names the
// model_type, what vlaunch lacks for it and the nearest family it models
// (public configs, testdata/hf/README.md).
func TestUnsupportedArchitecturesSayWhatIsMissing(t *testing.T) {
	for _, tt := range []struct{ file, modelType, lacks, nearest string }{
		// DeepSeek-V4, Gemma 4, MiMo-V2-Flash, Kimi-K3 and Kimi-Linear-48B
		// are modelled now (#23); a kimi_linear MLA with RoPE stays refused
		// (vLLM's KimiMLAAttention asserts use_nope).
		{`{"model_type": "kimi_linear", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "kv_lora_rank": 16, "hidden_act": "silu", "linear_attn_config": {"kda_layers": [1], "num_heads": 4, "head_dim": 16, "short_conv_kernel_size": 4}}`,
			"kimi_linear", "mla_use_nope false", "Kimi-K3 or Kimi-Linear-48B as published (kimi_linear)"},
	} {
		m, err := ParseHFConfig([]byte(tt.file))
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		err = m.Modelled()
		var ue *UnmodelledError
		if !errors.As(err, &ue) {
			t.Errorf("%s: accepted", tt.file)
			continue
		}
		msg := err.Error()
		for _, w := range []string{"cannot model this architecture " + tt.modelType, "vlaunch lacks " + ue.Lacks, tt.lacks, "the nearest family it models is " + ue.Nearest, tt.nearest} {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", tt.file, msg, w)
			}
		}
	}
	// An architecture vlaunch knows nothing of: what its fields make nearest.
	for _, tt := range []struct{ config, nearest string }{
		{`{"model_type": "phi3", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100}`, "dense GQA (llama)"},
		{`{"model_type": "x", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "num_experts": 8}`, "GQA MoE (qwen3_moe)"},
		{`{"model_type": "x", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "kv_lora_rank": 16}`, "MLA MoE (deepseek_v3)"},
	} {
		m, _ := ParseHFConfig([]byte(tt.config))
		err := m.Modelled()
		if err == nil || !strings.Contains(err.Error(), "the nearest family it models is "+tt.nearest) || !strings.Contains(err.Error(), "vlaunch lacks a reading of vLLM's model file") {
			t.Errorf("%s: %v", tt.config, err)
		}
	}
}

// TestIncompleteModelledConfigSaysSo: a config of a type vlaunch models,
// refused only for fields it lacks (aiconfigurator's trimmed Qwen3-Next
// copy has no linear_conv_kernel_dim), names those fields and the cure,
// not "a reading of vLLM's model file" for qwen3_next (which the hint
// lists as modelled) nor another family as the nearest.
func TestIncompleteModelledConfigSaysSo(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/qwen3-next-80b-a3b-thinking.json")
	if err != nil {
		t.Fatal(err)
	}
	err = m.Modelled()
	var ue *UnmodelledError
	if !errors.As(err, &ue) {
		t.Fatalf("trimmed Qwen3-Next: %v, want a refusal", err)
	}
	msg := err.Error()
	for _, w := range []string{"linear_conv_kernel_dim: Gated DeltaNet", `model_type "qwen3_next" reads`, "config.json as published, whole"} {
		if !strings.Contains(msg, w) {
			t.Errorf("%q lacks %q", msg, w)
		}
	}
	for _, bad := range []string{"a reading of vLLM's model file", "nearest family", "linear_num_key_heads"} {
		if strings.Contains(msg, bad) {
			t.Errorf("%q says %q", msg, bad)
		}
	}
}

// TestPythonNonFiniteLiterals: NaN, Infinity and -Infinity outside strings
// are read as Python's json reads them (as null here), never inside a
// string, and nothing else Python refuses is accepted.
func TestPythonNonFiniteLiterals(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/nemotron-h-56b-base-8k.json")
	if err != nil {
		t.Fatalf("Nemotron-H's time_step_limit [0.0, Infinity]: %v", err)
	}
	if !bytes.Contains([]byte(readFile(t, "testdata/hf/nemotron-h-56b-base-8k.json")), []byte("Infinity\n")) || m.NumLayers != 118 {
		t.Error("the fixture lost its Infinity")
	}
	for in, want := range map[string]string{
		`{"a": [0.0, Infinity], "b": -Infinity, "c": NaN}`:  `{"a": [0.0, null], "b": null, "c": null}`,
		`{"s": "NaN Infinity \" -Infinity", "t": Infinity}`: `{"s": "NaN Infinity \" -Infinity", "t": null}`,
		`{"s": "a\\", "t": [NaN,NaN]}`:                      `{"s": "a\\", "t": [null,null]}`,
		`[Infinity]`:                                        `[null]`,
	} {
		if got := string(pythonJSON([]byte(in))); got != want {
			t.Errorf("%s -> %s, want %s", in, got, want)
		}
	}
	base := `{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "x": %s}`
	for _, bad := range []string{"-NaN", "+Infinity", "Infinityx", "NaN1", "inf", "nan"} {
		if _, err := ParseHFConfig([]byte(sprintf(base, bad))); err == nil {
			t.Errorf("%s accepted (Python's json refuses it)", bad)
		}
	}
}

// TestListValuedMoELayerFreq: moe_layer_freq as one 0/1 per layer
// (MiMo-V2-Flash, Step-3.x) decides which layers have experts: leading
// dense layers become first_k_dense_replace, any other pattern is kept.
func TestListValuedMoELayerFreq(t *testing.T) {
	mimo, err := LoadHFConfig("testdata/hf/mimo-v2-flash.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if mimo.FirstKDenseReplace != 1 || mimo.MoELayerCount() != 47 {
		t.Errorf("MiMo-V2-Flash: first %d dense, %d MoE layers; want 1, 47", mimo.FirstKDenseReplace, mimo.MoELayerCount())
	}
	base := `{"model_type": "qwen3_moe", "hidden_size": 64, "num_hidden_layers": 4, "num_attention_heads": 4, "vocab_size": 100, "num_experts": 8, "moe_layer_freq": %s}`
	for freq, want := range map[string][]bool{
		`[0, 0, 1, 1]`:                {false, false, true, true},
		`[1, 0, 1, 0]`:                {true, false, true, false},
		`[false, true, true, false]`:  {false, true, true, false},
		`2`:                           {true, false, true, false},
		`null`:                        {true, true, true, true},
		`[1, 1, 1, 1, 1, 0, 0, 0, 0]`: {true, true, true, true}, // not one per layer: every layer, as without it
	} {
		m, err := ParseHFConfig([]byte(sprintf(base, freq)))
		if err != nil {
			t.Errorf("%s: %v", freq, err)
			continue
		}
		var got []bool
		for i := 0; i < m.NumLayers; i++ {
			got = append(got, m.IsMoELayer(i))
		}
		if sprintf("%v", got) != sprintf("%v", want) {
			t.Errorf("moe_layer_freq %s: MoE layers %v, want %v", freq, got, want)
		}
	}
	if _, err := ParseHFConfig([]byte(sprintf(base, `["a"]`))); err == nil {
		t.Error("a list of strings accepted as moe_layer_freq")
	}
}

// FuzzPythonJSON: the pre-pass never changes valid JSON, and whatever it
// returns for any input is read by ParseHFConfig without a panic.
func FuzzPythonJSON(f *testing.F) {
	for _, s := range []string{`{"a": [0.0, Infinity]}`, `{"s": "NaN\"", "b": -Infinity}`, `-NaN`, `"\\" NaN`, `NaNNaN`, `Infinity`} {
		f.Add([]byte(s))
	}
	paths, _ := filepath.Glob("testdata/hf/*.json")
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out := pythonJSON(data)
		if json.Valid(data) && !bytes.Equal(out, data) {
			t.Fatalf("valid JSON changed: %q -> %q", data, out)
		}
		if len(out) > len(data)+len(data)/3+1 {
			t.Fatalf("grew from %d to %d bytes", len(data), len(out))
		}
		if m, err := ParseHFConfig(data); err == nil {
			_ = m.ParamCounts()
			_ = m.Modelled()
		}
	})
}

// editJSON changes a config through a map.
func editJSON(t *testing.T, data string, edit func(map[string]any)) []byte {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		t.Fatal(err)
	}
	edit(c)
	out, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

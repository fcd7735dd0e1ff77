package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// textModelFamilies are the text_config model_types of multimodal wrappers
// whose language model is, in vLLM, a family vlaunch models: vLLM builds
// Qwen3-VL-MoE's language model as Qwen3MoeLLMModel(Qwen3MoeModel) and
// Qwen3-VL's as Qwen3LLMModel(Qwen3Model) (vllm/model_executor/models/
// qwen3_vl_moe.py, qwen3_vl.py): the same layers and weights, whose forward
// also adds the vision encoder's DeepStack features to the first layers'
// hidden states (no parameters of the text model). Their interleaved M-RoPE
// has no weights either.
var textModelFamilies = map[string]string{
	"qwen3_vl_moe_text": "qwen3_moe",
	"qwen3_vl_text":     "qwen3",
}

// wrapper is what ParseHFConfig keeps of a multimodal wrapper.
type wrapper struct {
	// wrapped: the config has a text_config; modelType and architecture
	// are then the wrapper's own (empty when it states none).
	wrapped                 bool
	modelType, architecture string
	// text holds the keys of the language model's config: the text_config,
	// or the file's own without a wrapper.
	text map[string]json.RawMessage
	// vision is the vision_config (nil without one).
	vision map[string]json.RawMessage
	// audio: the config has a non-null audio_config (Gemma 4's E2B/E4B,
	// Qwen-Omni …), whose tower vlaunch does not count.
	audio bool
	// top holds the wrapper's own keys (Step-3.7's projector_bias sits
	// beside its text_config and vision_config).
	top map[string]json.RawMessage
}

// describe names the wrapper for a message.
func (w wrapper) describe() string {
	t := w.modelType
	if t == "" {
		t = "(none)"
	}
	s := fmt.Sprintf("model_type %q", t)
	if w.architecture != "" {
		s += ", " + w.architecture
	}
	return s
}

// readWrapper returns the config of the language model: top itself, or,
// for a multimodal wrapper (text_config), its text_config, with what the
// wrapper states and the text_config does not (quantization_config,
// torch_dtype, tie_word_embeddings, vocab_size, max_position_embeddings)
// filled from the wrapper. It runs before any field check, so a wrapper is
// never refused for lacking the fields its text_config holds.
func readWrapper(top *hfConfig, data []byte) (*hfConfig, wrapper, error) {
	var w wrapper
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(data, &raw)
	w.top = raw
	w.audio = present(raw["audio_config"])
	if present(top.VisionConfig) {
		w.vision = map[string]json.RawMessage{}
		_ = json.Unmarshal(top.VisionConfig, &w.vision)
	}
	if !present(top.TextConfig) {
		w.text = raw
		return top, w, nil
	}
	w.wrapped, w.modelType = true, top.ModelType
	if len(top.Architectures) > 0 {
		w.architecture = top.Architectures[0]
	}
	var tc hfConfig
	if err := json.Unmarshal(top.TextConfig, &tc); err != nil {
		return nil, w, fmt.Errorf("config.json is a multimodal wrapper (%s) whose text_config is not a model config: %w", w.describe(), err)
	}
	_ = json.Unmarshal(top.TextConfig, &w.text)
	if tc.QuantizationConfig == nil {
		tc.QuantizationConfig = top.QuantizationConfig
	}
	if tc.TorchDType == "" && tc.DType == "" {
		tc.TorchDType, tc.DType = top.TorchDType, top.DType
	}
	if tc.TieWordEmbeddings == nil {
		tc.TieWordEmbeddings = top.TieWordEmbeddings
	}
	if tc.VocabSize <= 0 {
		tc.VocabSize = top.VocabSize
	}
	if tc.MaxPositionEmbeddings <= 0 {
		tc.MaxPositionEmbeddings = top.MaxPositionEmbeddings
	}
	return &tc, w, nil
}

func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && string(t) != "null"
}

// visionNote says how the vision encoder's weights are counted: with
// their parameter count where vLLM's module was read (m.Encoder), or as
// not counted, with their approximate size where the vision_config gives
// its blocks (a ViT block is attention, q, k, v, o: 4 h², and a
// two-matrix MLP, 2 h i; patch embedding, position embeddings and the
// projector left out).
func visionNote(m *Model, w wrapper) string {
	var what string
	switch {
	case w.wrapped && m.TextModelType != "":
		what = fmt.Sprintf("multimodal wrapper (%s): sized as its language model (text_config model_type %q, read as %s)",
			w.describe(), m.TextModelType, m.ModelType)
	case w.wrapped && !present(w.text["model_type"]):
		// nvidia/MiniMax-M3-NVFP4: the wrapper's architecture names the
		// language model (catalog/minimaxm3.go).
		what = fmt.Sprintf("multimodal wrapper (%s): sized as its language model (text_config states no model_type; read as %q, the model the wrapper builds from it)", w.describe(), m.ModelType)
	case w.wrapped:
		what = fmt.Sprintf("multimodal wrapper (%s): sized as its language model (text_config model_type %q)", w.describe(), m.ModelType)
	default:
		what = "config.json has a vision_config: sized as its language model"
	}
	if e := m.Encoder; e != nil {
		note := fmt.Sprintf("%s plus its vision encoder (%s, %.3f B parameters in the activation dtype, counted in weights per GPU: %s; "+
			"not modelled: --mm-encoder-tp-mode data, and releases that skip the tower when --limit-mm-per-prompt sets all its modalities to 0)",
			what, e.Kind, e.Params/1e9, e.Rule)
		if w.audio {
			note += "; its audio tower (audio_config) is not counted"
		}
		return note
	}
	note := what + "; the vision encoder's weights (vision_config) are not counted in weights per GPU"
	if w.audio {
		// MiMo-V2.6 ships an audio tower beside its vision tower; vLLM
		// builds neither under --language-model-only.
		note += ", nor its audio tower's (audio_config)"
	}
	depth := firstPositive(intKey(w.vision, "depth"), intKey(w.vision, "num_hidden_layers"), intKey(w.vision, "vt_num_hidden_layers"))
	h := firstPositive(intKey(w.vision, "hidden_size"), intKey(w.vision, "vt_hidden_size"))
	i := firstPositive(intKey(w.vision, "intermediate_size"), intKey(w.vision, "vt_intermediate_size"))
	if depth > 0 && h > 0 && i > 0 && depth < 1000 && h < 1<<16 && i < 1<<18 {
		p := float64(depth) * (4*float64(h)*float64(h) + 2*float64(h)*float64(i))
		note += fmt.Sprintf(" (about %.2f B parameters: %d blocks of width %d, MLP %d)", p/1e9, depth, h, i)
	}
	return note
}

// intKey reads a positive integer (or integral number) under key, 0 otherwise.
func intKey(obj map[string]json.RawMessage, key string) int {
	var f float64
	if json.Unmarshal(obj[key], &f) != nil || f <= 0 || f > 1<<30 || f != float64(int(f)) {
		return 0
	}
	return int(f)
}

// layerFreq is moe_layer_freq: DeepSeek's period (an integer), or, in
// MiMo-V2-Flash and Step-3.x, one 0/1 per decoder layer.
type layerFreq struct {
	every    int
	perLayer []int
}

// UnmarshalJSON reads an integer, a list of 0/1 (or booleans), or null.
func (f *layerFreq) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '[' {
		if string(b) == "null" {
			return nil
		}
		return json.Unmarshal(b, &f.every)
	}
	var ints []int
	if err := json.Unmarshal(b, &ints); err == nil {
		f.perLayer = append([]int{}, ints...)
		return nil
	}
	var flags []bool
	if err := json.Unmarshal(b, &flags); err != nil {
		return fmt.Errorf("moe_layer_freq is neither an integer nor a list of 0/1 per layer: %w", err)
	}
	f.perLayer = make([]int, len(flags))
	for i, v := range flags {
		if v {
			f.perLayer[i] = 1
		}
	}
	return nil
}

// perLayerMoE applies a per-layer moe_layer_freq: leading dense layers
// then experts everywhere is DeepSeek's first_k_dense_replace (what the
// estimator reads); any other pattern is kept layer by layer.
func (c *hfConfig) perLayerMoE(m *Model, f []int) {
	lead := 0
	for lead < len(f) && f[lead] == 0 {
		lead++
	}
	regular := true
	for _, v := range f[lead:] {
		if v == 0 {
			regular = false
		}
	}
	if regular {
		m.FirstKDenseReplace, m.MoELayerFreq = max(m.FirstKDenseReplace, lead), 1
		return
	}
	m.MoELayers = make([]bool, len(f))
	for i, v := range f {
		m.MoELayers[i] = v != 0
	}
}

// pythonJSON rewrites the bare NaN, Infinity and -Infinity that Python's
// json module (hence vLLM and transformers) accepts, and Go's does not, as
// null, outside strings; any other byte is left as it is. A file that is
// valid JSON is returned unchanged.
func pythonJSON(data []byte) []byte {
	if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return data
	}
	var out []byte
	prev := 0
	eachNonFinite(data, func(at, n int) {
		out = append(append(out, data[prev:at]...), "null"...)
		prev = at + n
	})
	if out == nil {
		return data
	}
	return append(out, data[prev:]...)
}

// eachNonFinite calls f with the offset and length of every bare Python
// non-finite literal of data outside strings, in order: the one scan
// pythonJSON rewrites from and pythonJSONEdits maps positions with.
func eachNonFinite(data []byte, f func(at, n int)) {
	inString, escaped := false, false
	for i := 0; i < len(data); i++ {
		ch := data[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				inString = false
			}
		case ch == '"':
			inString = true
		case i == 0 || !isIdentByte(data[i-1]):
			if n := nonFinite(data[i:]); n > 0 {
				f(i, n)
				i += n - 1
			}
		}
	}
}

// nonFinite is the length of the Python non-finite literal b starts with
// (as a whole token), 0 when it starts with none.
func nonFinite(b []byte) int {
	for _, t := range []string{"-Infinity", "Infinity", "NaN"} {
		if bytes.HasPrefix(b, []byte(t)) && (len(b) == len(t) || !isIdentByte(b[len(t)])) {
			return len(t)
		}
	}
	return 0
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '.' || b == '+' || b == '-' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

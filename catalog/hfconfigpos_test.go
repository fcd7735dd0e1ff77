package catalog

import (
	"bytes"
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// posOf is the 1-based line and byte column of the first occurrence of
// needle in text: the expected positions below are derived from the
// documents themselves, not written by hand.
func posOf(t *testing.T, text, needle string) (int, int) {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q not in the document", needle)
	}
	return 1 + strings.Count(text[:i], "\n"), i - strings.LastIndex(text[:i], "\n")
}

// TestConfigErrorPosition (qa38 finding 1): an error in config.json is
// located in config.json (line:col), not only at the spec line naming the
// file. A syntax error at its byte (after a NaN on the same line, whose
// rewrite as null must not shift the column), a wrong type at its key, a
// missing field at the object lacking it, a zero or implausible one at its
// key; the same in a wrapper's text_config.
func TestConfigErrorPosition(t *testing.T) {
	const base = "{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 64,\n  \"num_hidden_layers\": 2,\n  \"num_attention_heads\": 4,\n  \"vocab_size\": 100\n}\n"
	cases := []struct {
		name, doc string
		at        string // the text the error must point at (its first occurrence)
		key       string
		wantMsg   string
	}{
		{"trailing comma", strings.Replace(base, "100\n", "100,\n", 1), "}", "", "not valid JSON"},
		{"missing colon after NaN", strings.Replace(base, "\"vocab_size\": 100", "\"x\": NaN, \"vocab_size\" 100", 1), "100", "", "not valid JSON"},
		{"truncated", base[:len(base)-3], "", "", "unexpected end of JSON input"},
		{"wrong type", strings.Replace(base, "\"hidden_size\": 64", "\"hidden_size\": \"64\"", 1), "\"hidden_size\"", "hidden_size", "cannot unmarshal string"},
		{"missing field", strings.Replace(base, "  \"hidden_size\": 64,\n", "", 1), "{", "hidden_size", "lacks positive hidden_size"},
		{"zero field", strings.Replace(base, "\"num_attention_heads\": 4", "\"num_attention_heads\": 0", 1), "\"num_attention_heads\"", "num_attention_heads", "lacks positive num_attention_heads"},
		{"implausible", strings.Replace(base, "\"vocab_size\": 100", "\"vocab_size\": 100000000", 1), "\"vocab_size\"", "vocab_size", "implausible sizes"},
		{"not an object", "[1, 2]\n", "[", "", "not valid JSON"},
		{"wrapper wrong type", "{\"model_type\": \"llava\",\n \"text_config\": {\n   \"model_type\": \"llama\",\n   \"hidden_size\": [64]}}\n", "\"hidden_size\"", "text_config.hidden_size", "text_config is not a model config"},
		{"wrapper missing field", "{\"model_type\": \"llava\",\n \"text_config\": {\n   \"model_type\": \"llama\",\n   \"hidden_size\": 64}}\n", "\"text_config\"", "text_config.num_attention_heads", "text_config lacks positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseHFConfig([]byte(tc.doc))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T), want a *ConfigError", err, err)
			}
			if !strings.Contains(ce.Error(), tc.wantMsg) || ce.File != "config.json" || ce.Key != tc.key {
				t.Errorf("file %q key %q: %v; want key %q and %q", ce.File, ce.Key, ce, tc.key, tc.wantMsg)
			}
			wl, wc := 0, 0
			if tc.at == "" { // past the last byte
				wl, wc = 1+strings.Count(tc.doc, "\n"), len(tc.doc)-strings.LastIndex(tc.doc, "\n")
			} else {
				wl, wc = posOf(t, tc.doc, tc.at)
			}
			if ce.Line != wl || ce.Col != wc {
				t.Errorf("at %d:%d, want %d:%d (%q)", ce.Line, ce.Col, wl, wc, tc.at)
			}
		})
	}
}

// TestConfigErrorPositionRealConfig: DeepSeek-V3's published config.json
// (catalog/models) with hidden_size removed, the qa38 case
// (qa38/bad/brokencfg), and with hidden_size written as a string, each
// located in the file.
func TestConfigErrorPositionRealConfig(t *testing.T) {
	cfg := readFile(t, "models/deepseek-ai__DeepSeek-V3.json")
	line := cfg[strings.Index(cfg, "\"hidden_size\""):]
	line = line[:strings.IndexAny(line, ",\n")+1]
	_, err := ParseHFConfig([]byte(strings.Replace(cfg, line, "", 1)))
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Line != 1 || ce.Col != 1 || ce.Key != "hidden_size" {
		t.Errorf("hidden_size removed: %+v", ce)
	}
	bad := strings.Replace(cfg, "\"hidden_size\": 7168", "\"hidden_size\": \"7168\"", 1)
	if bad == cfg {
		t.Fatal("DeepSeek-V3's config.json has no \"hidden_size\": 7168")
	}
	_, err = ParseHFConfig([]byte(bad))
	wl, wc := posOf(t, bad, "\"hidden_size\"")
	if !errors.As(err, &ce) || ce.Line != wl || ce.Col != wc || wl < 2 {
		t.Errorf("hidden_size a string: %+v, want %d:%d", ce, wl, wc)
	}
}

// TestHFQuantConfigErrorPosition: a damaged hf_quant_config.json, when it
// is the one read, is located in that file.
func TestHFQuantConfigErrorPosition(t *testing.T) {
	cfg := readFile(t, "testdata/ckpt/nvidia--DeepSeek-V3.1-NVFP4/config.json")
	for _, tc := range []struct{ doc, at, key string }{
		{"{\n  \"producer\": {\"name\": \"modelopt\"},\n  \"quantization\": {\"quant_algo\": \"NVFP4\",}\n}\n", "}\n}", ""},
		{"{\n  \"producer\": {\"name\": \"modelopt\"},\n  \"quantization\": 3\n}\n", "\"quantization\"", "quantization"},
		{"{\n  \"producer\": {\"name\": \"modelopt\"}\n}\n", "{", "quantization"},
	} {
		_, err := ParseHFConfigWithQuant([]byte(cfg), []byte(tc.doc))
		var ce *ConfigError
		wl, wc := posOf(t, tc.doc, tc.at)
		if !errors.As(err, &ce) || ce.File != HFQuantConfigFile || ce.Key != tc.key || ce.Line != wl || ce.Col != wc {
			t.Errorf("%q: %+v, want %s %d:%d key %q", tc.doc, ce, HFQuantConfigFile, wl, wc, tc.key)
		}
	}
}

// TestPythonJSONEditsAgree: the rewrites pythonJSONEdits records, applied
// to the input, give pythonJSON's output (the offset map of syntax errors
// rests on it), on NaN/Infinity in and out of strings and at random.
func TestPythonJSONEditsAgree(t *testing.T) {
	docs := []string{
		`{"a": NaN, "b": -Infinity, "c": "NaN \" Infinity", "d": [Infinity,NaN], "NaNx": 1}`,
		`{"time_step_limit": [0.0, Infinity]}`, `NaN`, `{}`,
	}
	r := rand.New(rand.NewSource(1))
	parts := []string{"NaN", "Infinity", "-Infinity", `"`, `\`, " ", "x", ",", "1", "\n"}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for j := 0; j < 12; j++ {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		docs = append(docs, b.String())
	}
	for _, d := range docs {
		out, edits := pythonJSONEdits([]byte(d))
		var re []byte
		prev := 0
		for _, e := range edits {
			re = append(re, d[prev:e.inAt]...)
			if len(re) != e.outAt {
				t.Fatalf("%q: edit %+v at out offset %d", d, e, len(re))
			}
			re = append(re, "null"...)
			prev = e.inAt + e.inLen
		}
		re = append(re, d[prev:]...)
		if !bytes.Equal(re, out) || !bytes.Equal(out, pythonJSON([]byte(d))) {
			t.Fatalf("%q: edits give %q, pythonJSON %q", d, re, pythonJSON([]byte(d)))
		}
	}
}

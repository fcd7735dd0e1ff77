package catalog

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestCatalogModelsAreModelled: every embedded model is an architecture
// the estimator describes.
func TestCatalogModelsAreModelled(t *testing.T) {
	for _, m := range Models() {
		if err := m.Modelled(); err != nil {
			t.Errorf("%s: %v", m.ID, err)
		}
	}
}

// TestUnmodelledArchitecturesAreRefused: configs of another model_type or
// with an attention kind vlaunch does not model are refused with what is
// not modelled, never sized as a neighbouring family.
func TestUnmodelledArchitecturesAreRefused(t *testing.T) {
	v3, err := LoadHFConfig("models/deepseek-ai__DeepSeek-V3.json")
	if err != nil {
		t.Fatal(err)
	}
	tiny := `{"model_type": %q, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100%s}`
	for _, tt := range []struct {
		name, config string
		want         []string
	}{
		// Qwen3-Next is modelled (hybrid_test.go); without linear_conv_kernel_dim
		// its Gated DeltaNet state cannot be sized.
		{"linear attention, incomplete", readFile(t, "testdata/linear-attention.json"), []string{`model_type "qwen3_next"`, "linear_conv_kernel_dim", "Gated DeltaNet fields missing"}},
		{"unknown model_type", sprintf(tiny, "phi3", ""), []string{`model_type "phi3"`}},
		{"no model_type", `{"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100}`, []string{`model_type "(none)"`}},
		{"known type, new attention kind", sprintf(tiny, "llama", `, "attention_chunk_size": 8192`), []string{"chunked local attention"}},
		{"unknown layer type", sprintf(tiny, "qwen3", `, "sliding_window": 4, "layer_types": ["linear_attention", "full_attention"]`), []string{`layer type "linear_attention"`}},
		{"indexer without MLA", sprintf(tiny, "llama", `, "index_topk": 2048, "index_n_heads": 4, "index_head_dim": 16`), []string{"index_topk without MLA"}},
	} {
		m, err := ParseHFConfig([]byte(tt.config))
		if err != nil {
			t.Fatalf("%s: parse: %v", tt.name, err)
		}
		err = m.Modelled()
		var ue *UnmodelledError
		if !errors.As(err, &ue) {
			t.Fatalf("%s: accepted (%v)", tt.name, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", tt.name, err, w)
			}
		}
		if !strings.Contains(ue.Hint(), "deepseek_v3") {
			t.Errorf("%s: hint %q does not list the modelled types", tt.name, ue.Hint())
		}
	}
	if v3.IsSparseAttention() || v3.Modelled() != nil {
		t.Error("DeepSeek-V3 is dense and modelled")
	}
}

// TestDeepSeekV32IsModelledExplicitly: a V3.2 config is recognised as MLA
// with DeepSeek sparse attention, with the indexer's parameters and cache,
// not as V3.
func TestDeepSeekV32IsModelledExplicitly(t *testing.T) {
	m, err := LoadHFConfig("testdata/deepseek-v3.2-reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	if !m.IsSparseAttention() || m.AttendedWindow(0) != 2048 || m.BoundedWindow() != 2048 {
		t.Fatalf("DSA not recognised: %+v", m)
	}
	// wq_b 1536 × 64 × 128 + wk 7168 × 128 + weights_proj 7168 × 64 + k_norm 2 × 128.
	want := 1536.0*64*128 + 7168*128 + 7168*64 + 256
	p := m.ParamCounts()
	if p.IndexerPerLayer != want || p.Indexer != 61*want {
		t.Errorf("indexer %v per layer, %v in all; want %v", p.IndexerPerLayer, p.Indexer, want)
	}
	v3, _ := LookupModel("deepseek-v3")
	if d := p.Total - v3.ParamCounts().Total; d != p.Indexer {
		t.Errorf("V3.2 - V3 = %v params, want the indexer's %v", d, p.Indexer)
	}
	if m.IndexerCacheBytes() != 132 || m.MLACacheBytes(1) != 656 || m.MLACacheBytes(2) != 1152 {
		t.Errorf("cache bytes: indexer %d, fp8 %d, bf16 %d", m.IndexerCacheBytes(), m.MLACacheBytes(1), m.MLACacheBytes(2))
	}
	if v3.MLACacheBytes(1) != 576 {
		t.Errorf("dense MLA FP8 entry %d, want 576", v3.MLACacheBytes(1))
	}
}

func TestGuessComputeMajor(t *testing.T) {
	for name, want := range map[string]int{"NVIDIA H20": 9, "GB200 NVL72": 10, "A100-SXM4-80GB": 8, "NVIDIA L4": 8, "Instinct MI300X": 0} {
		if got := GuessComputeMajor(name); got != want {
			t.Errorf("%s: %d, want %d", name, got, want)
		}
	}
	for _, g := range GPUs() {
		if g.Vendor == "nvidia" && (g.ComputeMajor == 0 || GuessComputeMajor(g.Name) != g.ComputeMajor) {
			t.Errorf("%s: compute capability %d, guessed from its name %d", g.ID, g.ComputeMajor, GuessComputeMajor(g.Name))
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := ReadHFConfigFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

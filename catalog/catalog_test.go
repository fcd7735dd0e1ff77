package catalog

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestLookupModelSuggests(t *testing.T) {
	_, err := LookupModel("deepseek-v4")
	if err == nil || !strings.Contains(err.Error(), `did you mean "deepseek-v3"`) {
		t.Fatalf("want a did-you-mean for deepseek-v3, got %v", err)
	}
	m, err := LookupModel("deepseek-ai/DeepSeek-V3")
	if err != nil || m.ID != "deepseek-v3" {
		t.Fatalf("lookup by HF repo: %v %v", m, err)
	}
}

func TestLookupGPU(t *testing.T) {
	g, err := LookupGPU("H20")
	if err != nil || g.ID != "h20-96g" || g.MemoryMiB != 97285 {
		t.Fatalf("H20 alias: %+v %v", g, err)
	}
	if _, err := LookupGPU("h2O"); err == nil || !strings.Contains(err.Error(), "did you mean") {
		t.Fatalf("want suggestion, got %v", err)
	}
	for _, g := range GPUs() {
		if g.MemoryMiB <= 0 || g.HBMBandwidthGBytesPerS <= 0 || g.BF16TFLOPS <= 0 || g.IntraNodeGBytesPerS < 0 {
			t.Errorf("%s has a missing figure: %+v", g.ID, g)
		}
		if g.IntraNodeGBytesPerS == 0 && !singleGPUSystems[g.ID] {
			t.Errorf("%s has no GPU-to-GPU link figure", g.ID)
		}
	}
}

// TestArchitectureFacts pins the facts read from each family's config.json.
func TestArchitectureFacts(t *testing.T) {
	tests := []struct {
		id                        string
		mla, moe, trust           bool
		moeLayers, kvHeads, quant string
	}{
		{id: "deepseek-v3", mla: true, moe: true, moeLayers: "58", kvHeads: "128", quant: "fp8"},
		{id: "kimi-k2", mla: true, moe: true, trust: true, moeLayers: "60", kvHeads: "64", quant: "fp8"},
		{id: "qwen3-30b-a3b", moe: true, moeLayers: "48", kvHeads: "4"},
		{id: "llama-3.1-70b", moeLayers: "0", kvHeads: "8"},
		{id: "gpt-oss-20b", moe: true, moeLayers: "24", kvHeads: "8", quant: "mxfp4"},
		{id: "glm-4.5", moe: true, moeLayers: "89", kvHeads: "8"},
		{id: "glm-4.5-air", moe: true, moeLayers: "45", kvHeads: "8"},
	}
	for _, tt := range tests {
		m, err := LookupModel(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		got := []string{itoa(m.MoELayerCount()), itoa(m.NumKVHeads), m.Quant.Method}
		want := []string{tt.moeLayers, tt.kvHeads, tt.quant}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s field %d: got %q want %q", tt.id, i, got[i], want[i])
			}
		}
		if m.IsMLA() != tt.mla || m.IsMoE() != tt.moe || m.TrustRemoteCode != tt.trust {
			t.Errorf("%s: mla=%v moe=%v trust=%v", tt.id, m.IsMLA(), m.IsMoE(), m.TrustRemoteCode)
		}
	}
	oss, _ := LookupModel("gpt-oss-120b")
	if !oss.IsSlidingLayer(0) || oss.IsSlidingLayer(1) || oss.SlidingWindow != 128 {
		t.Errorf("gpt-oss sliding layers wrong: %v", oss.LayerTypes[:2])
	}
	qwen, _ := LookupModel("qwen2.5-72b")
	if qwen.SlidingWindow != 0 {
		t.Errorf("qwen2.5 has use_sliding_window=false, got window %d", qwen.SlidingWindow)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestSharedConfigsMatchEmbedded keeps the embedded copies in step with the
// reference configs when the shared folder is present.
func TestSharedConfigsMatchEmbedded(t *testing.T) {
	dir := "../../shared/reference/model-configs"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skip("shared reference configs not present")
	}
	for _, e := range entries {
		emb, err := modelFiles.ReadFile("models/" + e.Name())
		if err != nil {
			continue
		}
		ref, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if string(ref) != string(emb) {
			t.Errorf("%s differs from the shared reference copy", e.Name())
		}
	}
}

func TestParseHFConfigRejectsGarbage(t *testing.T) {
	for _, in := range []string{``, `[]`, `{"hidden_size": "x"}`, `{}`, `{"hidden_size": 1, "num_hidden_layers": 1, "num_attention_heads": 0, "vocab_size": 1}`} {
		if _, err := ParseHFConfig([]byte(in)); err == nil {
			t.Errorf("ParseHFConfig(%q) accepted garbage", in)
		}
	}
}

func FuzzParseHFConfig(f *testing.F) {
	for _, m := range modelIndex {
		data, _ := modelFiles.ReadFile("models/" + m.file)
		f.Add(data)
	}
	hf, _ := filepath.Glob("testdata/hf/*.json")
	for _, p := range append([]string{"testdata/deepseek-v3.2-reconstructed.json", "testdata/linear-attention.json"}, hf...) {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseHFConfig(data)
		if err != nil {
			return
		}
		_ = m.ParamCounts()
		_ = m.MoELayerCount()
		_ = m.Modelled()
		_, _ = m.IndexerCacheBytes(), m.MLACacheBytes(1)
		// IndexCache's pattern or frequency over any layer range.
		_ = m.IndexerLayers(-1, m.NumLayers+1)
		// The hybrids' state and weights at an uneven TP must not panic
		// (a divide by a zero group or head count, a pattern past the layers).
		_, _ = m.GDNStateElems(3)
		_, _ = m.MambaStateElems(3)
		_, _ = m.LinearAttentionParams(3), m.MambaParams(3)
		_ = m.AttentionQuantShare(1, 1)
		// DeepSeek-V4's caches and per-rank attention for any ratios.
		_, _ = m.DeepseekV4Caches(-1, m.NumLayers+1), m.AttentionParams(3, 1)
	})
}

package catalog

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestOlmo3 sizes Olmo-3-7B (catalog/testdata/hf/olmo-3-7b.written.json) as
// vLLM's olmo2.py builds it (catalog/olmo.go), counted by hand: 32 layers of
// q, k, v, o 4,096 × 4,096 (32 heads and 32 KV heads of 128, no biases),
// q_norm over 4,096 and k_norm over 32 × 128 = 4,096, a SwiGLU MLP of
// 3 × 4,096 × 11,008 and two norms of 4,096; untied embeddings of
// 100,278 × 4,096 and the final norm: 7,298,011,136 parameters (the Olmo 3
// "7B"). Layers 3, 7, …, 31 are full attention, the other 24 slide over
// 4,096 tokens.
func TestOlmo3(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/olmo-3-7b.written.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h = 4096.0
	layer := 4*h*h + 2*h + 3*h*11008 + 2*h
	want := 32*layer + 2*100278*h + h
	if want != 7298011136 {
		t.Fatalf("hand count %.0f", want)
	}
	if pc := m.ParamCounts(); math.Abs(pc.Total-want) > 0.5 || math.Abs(pc.Total-7e9) > 0.5e9 {
		t.Errorf("%.0f parameters, want %.0f (card 7B)", pc.Total, want)
	}
	sliding := 0
	for i := 0; i < m.NumLayers; i++ {
		if m.IsSlidingLayer(i) {
			sliding++
		}
		if m.IsSlidingLayer(i) == ((i+1)%4 == 0) {
			t.Errorf("layer %d sliding %v", i, m.IsSlidingLayer(i))
		}
	}
	if sliding != 24 || m.SlidingWindow != 4096 || m.HeadDim != 128 || !m.QKNormAllHeads || m.TrustRemoteCode {
		t.Errorf("%d sliding layers of %d, head %d, QK norm over all heads %v, trust_remote_code %v", sliding, m.SlidingWindow, m.HeadDim, m.QKNormAllHeads, m.TrustRemoteCode)
	}
}

// TestOlmoLayerTypes: without layer_types an olmo3 config takes
// transformers' Olmo3Config pattern (three sliding layers to one full) and,
// without sliding_window, its 4,096; an olmo2 config has no sliding layers
// even with a sliding_window key (vLLM slides only where layer_types says);
// head_dim is hidden / heads whatever a head_dim key says.
func TestOlmoLayerTypes(t *testing.T) {
	base, err := os.ReadFile("testdata/hf/olmo-3-7b.written.json")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(set map[string]any, del ...string) []byte {
		var c map[string]any
		if err := json.Unmarshal(base, &c); err != nil {
			t.Fatal(err)
		}
		for _, k := range del {
			if _, ok := c[k]; !ok {
				t.Fatalf("fixture lacks %s", k)
			}
			delete(c, k)
		}
		for k, v := range set {
			c[k] = v
		}
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, tt := range []struct {
		name            string
		config          []byte
		sliding, window int
	}{
		{"no layer_types", edit(nil, "layer_types"), 24, 4096},
		{"no layer_types, no window", edit(nil, "layer_types", "sliding_window"), 24, 4096},
		{"window 1024", edit(map[string]any{"sliding_window": 1024}), 24, 1024},
		{"olmo2", edit(map[string]any{"model_type": "olmo2", "head_dim": 64}, "layer_types"), 0, 0},
	} {
		m, err := ParseHFConfig(tt.config)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if err := m.Modelled(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		sliding := 0
		for i := 0; i < m.NumLayers; i++ {
			if m.IsSlidingLayer(i) {
				sliding++
			}
		}
		if sliding != tt.sliding || m.SlidingWindow != tt.window || m.HeadDim != 128 {
			t.Errorf("%s: %d sliding layers of %d, head %d; want %d of %d, head 128", tt.name, sliding, m.SlidingWindow, m.HeadDim, tt.sliding, tt.window)
		}
	}
}

package catalog

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// TestErnie45MoE sizes ERNIE-4.5-21B-A3B (catalog/testdata/hf/
// ernie-4.5-21b-a3b.reconstructed.json) as vLLM's ernie45_moe.py builds it
// (catalog/ernie45.go), counted by hand: 28 layers of attention, q and o
// 2,560 × 2,560 (20 heads of 128), k and v 2,560 × 512 (4 KV heads), no
// biases (use_bias false): 15,728,640; two norms of 2,560 per layer; layer 0
// (before moe_layer_start_index 1) a dense MLP of 3 × 2,560 × 12,288 =
// 94,371,840; layers 1–27 (to moe_layer_end_index 27) 64 experts of
// 3 × 2,560 × 1,536 = 11,796,480, the shared MLP of 2 × 1,536 (23,592,960)
// and a float32 gate 2,560 × 64 with its 64 correction biases (163,904);
// tied embeddings 103,424 × 2,560 and the final norm:
// 21,825,437,888 parameters, 3,352,150,208 active (6 of 64 experts). Card
// (baidu/ERNIE-4.5-21B-A3B): 21B total, 3B activated per token. KV per
// token (BF16): 28 × 2 × 4 × 128 × 2 = 57,344 B.
func TestErnie45MoE(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/ernie-4.5-21b-a3b.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h = 2560.0
	attn := 2*h*20*128 + 2*h*4*128
	expert := 3 * h * 1536
	moeLayer := 64*expert + 2*expert + (h*64 + 64)
	want := 28*(attn+2*h) + 3*h*12288 + 27*moeLayer + 103424*h + h
	if want != 21825437888 {
		t.Fatalf("hand count %.0f", want)
	}
	pc := m.ParamCounts()
	if math.Abs(pc.Total-want) > 0.5 {
		t.Errorf("%.0f parameters, want %.0f", pc.Total, want)
	}
	if a, wa := pc.Active(m), want-27*58*expert; math.Abs(a-wa) > 0.5 || wa != 3352150208 {
		t.Errorf("%.0f active, want %.0f", a, wa)
	}
	if math.Abs(pc.Total-21e9) > 1e9 || math.Abs(pc.Active(m)-3e9) > 0.5e9 {
		t.Errorf("%.2f B total, %.2f B active against the card's 21B / 3B", pc.Total/1e9, pc.Active(m)/1e9)
	}
	if m.IsMoELayer(0) || !m.IsMoELayer(1) || !m.IsMoELayer(27) || m.MoELayerCount() != 27 || !m.RouterFP32 || !m.ScoreCorrectionBias || m.AttentionBias || m.TrustRemoteCode {
		t.Errorf("MoE layers %d (0: %v, 1: %v, 27: %v), fp32 router %v, correction bias %v, attention bias %v, trust_remote_code %v",
			m.MoELayerCount(), m.IsMoELayer(0), m.IsMoELayer(1), m.IsMoELayer(27), m.RouterFP32, m.ScoreCorrectionBias, m.AttentionBias, m.TrustRemoteCode)
	}
	if kv := m.NumLayers * 2 * m.NumKVHeads * m.HeadDim * 2; kv != 57344 {
		t.Errorf("KV %d B per token, want 57,344", kv)
	}
}

// TestErnie45Placement: vLLM's rule (i + 1) % moe_layer_interval == 0 and
// start ≤ i ≤ end, with end −1 read as the last layer (transformers'
// Ernie4_5_MoeConfig); a null end index, which vLLM compares layer indices
// with, and use_bias true (MLP biases) are refused, naming ernie4_5_moe.
func TestErnie45Placement(t *testing.T) {
	base, err := os.ReadFile("testdata/hf/ernie-4.5-21b-a3b.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) []byte {
		if !strings.Contains(string(base), old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return []byte(strings.Replace(string(base), old, new, 1))
	}
	for _, tt := range []struct {
		name   string
		config []byte
		moe    int
		first  int
		refuse string
	}{
		{"interval 2", edit(`"moe_layer_interval": 1`, `"moe_layer_interval": 2`), 14, 1, ""}, // 1, 3, …, 25, 27
		{"end -1", edit(`"moe_layer_end_index": 27`, `"moe_layer_end_index": -1`), 27, 1, ""}, // 1 … 27
		{"end 14", edit(`"moe_layer_end_index": 27`, `"moe_layer_end_index": 14`), 14, 1, ""}, // 1 … 14
		{"end null", edit(`"moe_layer_end_index": 27`, `"moe_layer_end_index": null`), 0, 0, "moe_layer_end_index null"},
		{"use_bias", edit(`"model_type": "ernie4_5_moe",`, `"model_type": "ernie4_5_moe", "use_bias": true,`), 0, 0, "use_bias true"},
	} {
		m, err := ParseHFConfig(tt.config)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		err = m.Modelled()
		if tt.refuse != "" {
			var ue *UnmodelledError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.refuse) || !strings.Contains(err.Error(), "ernie4_5_moe") ||
				!strings.Contains(err.Error(), "the nearest family it models is ERNIE-4.5-21B-A3B as published") {
				t.Errorf("%s: %v, want a refusal naming %q and ernie4_5_moe", tt.name, err, tt.refuse)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		first := -1
		for i := 0; i < m.NumLayers && first < 0; i++ {
			if m.IsMoELayer(i) {
				first = i
			}
		}
		if m.MoELayerCount() != tt.moe || first != tt.first {
			t.Errorf("%s: %d MoE layers from %d, want %d from %d", tt.name, m.MoELayerCount(), first, tt.moe, tt.first)
		}
	}
}

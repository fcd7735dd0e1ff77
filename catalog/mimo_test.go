package catalog

import (
	"math"
	"testing"
)

// TestMiMoV2Flash reads MiMo-V2-Flash (testdata/hf/mimo-v2-flash.verbatim.
// json, aiconfigurator's copy of the published config.json) as vLLM's
// mimo_v2_flash.py builds it and counts it by hand: 39 sliding-window layers
// (hybrid_layer_pattern 1) of 64 query heads, 8 KV heads, K 192 and V 128,
// with a sink per head; 9 full layers of 64 heads, 4 KV heads, K 192, V 128;
// layer 0 a dense MLP of 16,384, the other 47 256 experts of 2,048 (top 8)
// with a float32 gate and bias; two norms per layer; untied embeddings of
// 152,576 × 4,096. vLLM's recipe (vllm-project/recipes models/XiaomiMiMo/
// MiMo-V2-Flash.yaml) and the model card it links say 309B total / 15B
// active.
func TestMiMoV2Flash(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/mimo-v2-flash.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h, e, mi, v = 4096.0, 256.0, 2048.0, 152576.0
	swa := h*(64*192+8*192+8*128) + 64*128*h + 64
	full := h*(64*192+4*192+4*128) + 64*128*h
	moe := e*3*h*mi + h*e + e
	dense := 3 * h * 16384
	total := 39*swa + 9*full + 47*moe + dense + 48*2*h + 2*v*h + h
	pc := m.ParamCounts()
	if math.Abs(pc.Total-total) > 1 {
		t.Errorf("total %.10g, hand %.10g", pc.Total, total)
	}
	active := pc.Active(m)
	t.Logf("MiMo-V2-Flash %.2fB total, %.2fB active (card 309B / 15B)", pc.Total/1e9, active/1e9)
	if math.Abs(pc.Total/309e9-1) > 0.01 || math.Abs(active-15e9) > 0.5e9 {
		t.Errorf("%.4gB / %.4gB off the card's 309B / 15B", pc.Total/1e9, active/1e9)
	}
	sliding := 0
	for i := 0; i < m.NumLayers; i++ {
		if m.IsSlidingLayer(i) {
			sliding++
		}
	}
	if sliding != 39 || m.SlidingWindow != 128 || m.MoELayerCount() != 47 {
		t.Errorf("%d sliding layers, window %d, %d MoE layers", sliding, m.SlidingWindow, m.MoELayerCount())
	}
	if kv, k, vd := m.LayerKV(0); kv != 4 || k != 192 || vd != 128 {
		t.Errorf("layer 0 (full): %d × (%d + %d)", kv, k, vd)
	}
	if kv, k, vd := m.LayerKV(1); kv != 8 || k != 192 || vd != 128 {
		t.Errorf("layer 1 (sliding): %d × (%d + %d)", kv, k, vd)
	}
	// A pattern short of the layers is refused.
	bad, _ := ParseHFConfig([]byte(`{"model_type": "mimo_v2_flash", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
		"head_dim": 16, "v_head_dim": 8, "sliding_window_size": 8, "hybrid_layer_pattern": [1]}`))
	if err := bad.Modelled(); err == nil {
		t.Error("a 1-entry pattern for 2 layers accepted")
	}
}

package catalog

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestMTPLayersModel: the proposer of method mtp is the target's layers
// num_hidden_layers … + n as vLLM builds them. Step-3.7-Flash (the
// reconstructed wrapper, text_config = Step-3.5-Flash's published file):
// step3p5_mtp.py builds layers 45, 46, 47, whose layer_types entries are
// sliding_attention and which moe_layers_enum ("3,…,44") does not list, so
// three dense sliding-window layers — and no PerceptionEncoder, which only
// the wrapper builds. Listing 45 in the enum makes the first one MoE.
// DeepSeek-V3's MTP layer routes through experts, as before.
func TestMTPLayersModel(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/step-3.7-flash.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.NumNextNPredictLayers != 3 || m.Encoder == nil {
		t.Fatalf("Step-3.7: %d MTP layers, tower %v", m.NumNextNPredictLayers, m.Encoder != nil)
	}
	l := m.MTPLayersModel(3)
	if l.NumLayers != 3 || l.VocabSize != 0 || l.Encoder != nil || l.NumNextNPredictLayers != 0 {
		t.Errorf("MTP model: %d layers, vocab %d, tower %v, %d MTP", l.NumLayers, l.VocabSize, l.Encoder != nil, l.NumNextNPredictLayers)
	}
	if !slices.Equal(l.LayerTypes, []string{"sliding_attention", "sliding_attention", "sliding_attention"}) {
		t.Errorf("MTP layer types %q, want layer_types[45:48]", l.LayerTypes)
	}
	for j := 0; j < 3; j++ {
		if l.IsMoELayer(j) || !l.IsSlidingLayer(j) || l.LayerHeads(j) != 96 {
			t.Errorf("MTP layer %d: MoE %v, sliding %v, %d heads; want a dense sliding layer of 96 heads", j, l.IsMoELayer(j), l.IsSlidingLayer(j), l.LayerHeads(j))
		}
	}
	if m.Encoder == nil || m.NumLayers != 45 || !m.IsMoELayer(44) || m.IsMoELayer(2) {
		t.Errorf("the target changed: tower %v, %d layers", m.Encoder != nil, m.NumLayers)
	}

	// moe_layers_enum listing 45: the first MTP layer takes experts.
	raw := readFile(t, "testdata/hf/step-3.7-flash.reconstructed.json")
	var top map[string]any
	if err := json.Unmarshal([]byte(raw), &top); err != nil {
		t.Fatal(err)
	}
	tc := top["text_config"].(map[string]any)
	tc["moe_layers_enum"] = tc["moe_layers_enum"].(string) + ",45"
	data, _ := json.Marshal(top)
	e, err := ParseHFConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if l := e.MTPLayersModel(3); !l.IsMoELayer(0) || l.IsMoELayer(1) || !strings.Contains(strings.Join(l.LayerTypes, ","), "sliding") {
		t.Errorf("enum with 45: MTP layers MoE %v %v", l.IsMoELayer(0), l.IsMoELayer(1))
	}

	// Qwen3-Next's MTP layer is full attention with the target's experts
	// (its first layer is Gated DeltaNet); MiMo-V2-Flash's is a dense
	// sliding-window layer.
	q, err := LookupModel("Qwen/Qwen3-Next-80B-A3B-Thinking")
	if err != nil {
		t.Fatal(err)
	}
	if q.LayerTypes[0] != "linear_attention" {
		t.Fatalf("Qwen3-Next's first layer %q", q.LayerTypes[0])
	}
	if l := q.MTPLayersModel(1); !slices.Equal(l.LayerTypes, []string{"full_attention"}) || !l.IsMoELayer(0) {
		t.Errorf("Qwen3-Next's MTP layer: types %q, MoE %v; want full attention with experts", l.LayerTypes, l.IsMoELayer(0))
	}
	mi, err := LookupModel("XiaomiMiMo/MiMo-V2-Flash")
	if err != nil {
		t.Fatal(err)
	}
	if l := mi.MTPLayersModel(1); !l.IsSlidingLayer(0) || l.IsMoELayer(0) {
		t.Errorf("MiMo-V2-Flash's MTP layer: sliding %v, MoE %v; want a dense sliding-window layer", l.IsSlidingLayer(0), l.IsMoELayer(0))
	}

	d, err := LookupModel("deepseek-ai/DeepSeek-V3")
	if err != nil {
		t.Fatal(err)
	}
	if l := d.MTPLayersModel(d.NumNextNPredictLayers); l.NumLayers != 1 || !l.IsMoELayer(0) || l.LayerTypes != nil {
		t.Errorf("DeepSeek-V3's MTP layer: %d layers, MoE %v, types %q", l.NumLayers, l.IsMoELayer(0), l.LayerTypes)
	}
}

package catalog

import (
	"math"
	"strings"
	"testing"
)

// TestLlama4 reads Llama-4 Scout and Maverick (verbatim configs,
// aiconfigurator @095f58a5) as vLLM's llama4.py builds their language
// models and counts them by hand: 48 layers of GQA attention (40 query, 8
// KV heads of 128; no biases; weightless L2 QK norm); MoE layers where
// (i + 1) % interleave_moe_layer_step == 0 with experts of 3 × 5120 × 8192,
// one shared expert of the same width and a 5120 × experts router; the
// other layers a dense MLP of 3 × 5120 × 16384; untied embeddings of 202,048.
// Cards: Scout 109B total, Maverick 400B total, 17B active each (both with
// the vision encoder, not in these copies: the text models count 107.8B
// and 400.7B, 17.2B active).
func TestLlama4(t *testing.T) {
	for _, tt := range []struct {
		file               string
		experts, moeLayers float64
		card               float64
	}{
		{"testdata/hf/llama-4-scout-17b-16e-instruct.verbatim.json", 16, 48, 109e9},
		{"testdata/hf/llama-4-maverick-17b-128e-instruct.verbatim.json", 128, 24, 400e9},
	} {
		m, err := LoadHFConfig(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		const h = 5120.0
		attn := 2*h*40*128 + 2*h*8*128
		expert := 3 * h * 8192
		want := 2*202048*h + 48*(attn+2*h) + h + tt.moeLayers*((tt.experts+1)*expert+h*tt.experts) + (48-tt.moeLayers)*3*h*16384
		pc := m.ParamCounts()
		if math.Abs(pc.Total-want) > 1 || float64(m.MoELayerCount()) != tt.moeLayers || m.IsMoELayer(0) != (tt.moeLayers == 48) {
			t.Errorf("%s: total %.8g, want %.8g; %d MoE layers", tt.file, pc.Total, want, m.MoELayerCount())
		}
		// aiconfigurator's copies keep no vision_config: only the chunk note.
		if len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "chunked local attention") {
			t.Errorf("%s: notes %q", tt.file, m.Notes)
		}
		active := pc.Active(m)
		t.Logf("%s: %.2fB text (card %.0fB with vision), %.2fB active (card 17B)", tt.file, pc.Total/1e9, tt.card/1e9, active/1e9)
		if d := pc.Total/tt.card - 1; d > 0.01 || d < -0.03 || math.Abs(active/17e9-1) > 0.03 {
			t.Errorf("%s: %.2fB / %.2fB active off the card", tt.file, pc.Total/1e9, active/1e9)
		}
	}
}

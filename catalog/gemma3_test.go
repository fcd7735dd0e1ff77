package catalog

import (
	"math"
	"strings"
	"testing"
)

// TestGemma3 reads Gemma-3-27B-IT (testdata/hf/gemma-3-27b-it.
// reconstructed.json, whose _source says from what) as vLLM's gemma3.py
// builds its language model, with transformers' Gemma3TextConfig defaults
// for what the published file leaves out, and counts it by hand: 62 layers
// of attention (32 query, 16 KV heads of 128; per-head q/k norms), a gated
// MLP of 21,504, four norms each; tied embeddings of 262,208 × 5376. Five
// of every six layers slide over 1,024 tokens. The card says 27B (27.4B on
// Hugging Face with the 0.4B SigLIP vision encoder).
func TestGemma3(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/gemma-3-27b-it.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h = 5376.0
	attn := 2*h*32*128 + 2*h*16*128 + 2*128
	want := 262208*h + 62*(attn+3*h*21504+4*h) + h
	pc := m.ParamCounts()
	if math.Abs(pc.Total-want) > 1 || !m.TieWordEmbeddings || m.SlidingWindow != 1024 {
		t.Errorf("total %.8g, want %.8g; tied %v, window %d", pc.Total, want, m.TieWordEmbeddings, m.SlidingWindow)
	}
	sliding := 0
	for i := 0; i < m.NumLayers; i++ {
		if m.IsSlidingLayer(i) {
			sliding++
		}
	}
	if sliding != 52 || m.IsSlidingLayer(5) || !m.IsSlidingLayer(0) {
		t.Errorf("%d sliding layers (want 52: all but every 6th)", sliding)
	}
	if len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "0.423 B") || m.Encoder == nil {
		t.Fatalf("notes %q", m.Notes)
	}
	t.Logf("Gemma-3-27B text %.2fB + vision %.3fB (card 27B; 27.4B on Hugging Face)", pc.Total/1e9, m.Encoder.Params/1e9)
	if math.Abs((pc.Total+m.Encoder.Params)/27.4e9-1) > 0.002 {
		t.Errorf("%.2fB + vision off 27.4B", pc.Total/1e9)
	}
}

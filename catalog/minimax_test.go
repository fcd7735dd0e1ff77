package catalog

import (
	"math"
	"testing"
)

// TestMiniMaxM2 reads MiniMax-M2.5 (catalog, verbatim config.json) as vLLM's
// minimax_m2.py builds it and counts its parameters by hand: per layer GQA
// attention (q 48×128, k and v 8×128, o) with q/k RMSNorm over all heads
// (48×128 + 8×128 weights), 256 experts of 3 × 3072 × 1536, a float32
// gate with its correction bias, two norms; embeddings untied. MiniMax-M2's
// card says 230B total and 10B active.
func TestMiniMaxM2(t *testing.T) {
	m, err := LookupModel("minimax-m2.5")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h, layers, experts, inter, vocab = 3072.0, 62.0, 256.0, 1536.0, 200064.0
	attn := h*48*128 + 2*h*8*128 + 48*128*h + (48+8)*128
	expert := 3 * h * inter
	router := h*experts + experts
	want := 2*vocab*h + layers*(attn+experts*expert+router+2*h) + h
	pc := m.ParamCounts()
	if pc.Total != want {
		t.Errorf("total %.6g, want %.6g", pc.Total, want)
	}
	if d := pc.Total/230e9 - 1; math.Abs(d) > 0.01 {
		t.Errorf("total %.1fB is %.1f%% off the card's 230B", pc.Total/1e9, 100*d)
	}
	active := pc.Active(m)
	if want := want - layers*(experts-8)*expert; active != want {
		t.Errorf("active %.6g, want %.6g", active, want)
	}
	if !m.RouterFP32 || !m.ScoreCorrectionBias || !m.QKNormAllHeads || m.PartialRotaryFactor != 0.5 || m.CheckpointDType() != "fp8" {
		t.Errorf("read as %+v", m)
	}
	t.Logf("MiniMax-M2.5: %.1fB total (card 230B), %.2fB active (card 10B; %.2fB without embeddings)", pc.Total/1e9, active/1e9, (active-2*vocab*h)/1e9)

	// The NVFP4 export (nvidia/MiniMax-M2.5-NVFP4): experts NVFP4, the
	// excluded self_attn* and gates BF16.
	nv := loadCkpt(t, "nvidia--MiniMax-M2.5-NVFP4")
	if err := nv.Modelled(); err != nil {
		t.Fatal(err)
	}
	if got, want := nv.FourBitWeightBytes(), 0.5625*layers*experts*expert+2*(pc.Total-layers*experts*expert); math.Abs(got-want)/want > 1e-9 {
		t.Errorf("NVFP4 bytes %.2f GB, want %.2f GB", got/1e9, want/1e9)
	}
}

// TestMiniMaxAttnTypeList: MiniMax-M2.7 lists attn_type_list with every
// layer 1 (softmax attention), which is MiniMax-M2; a list with lightning
// layers (0, MiniMax-Text-01 / M1) stays refused.
func TestMiniMaxAttnTypeList(t *testing.T) {
	base := `{"model_type": "minimax_m2", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "num_local_experts": 4, "num_experts_per_tok": 2, "intermediate_size": 32, "attn_type_list": %s}`
	for list, ok := range map[string]bool{"[1, 1]": true, "[0, 1]": false, "[]": false, `"x"`: false} {
		m, err := ParseHFConfig([]byte(sprintf(base, list)))
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Modelled() == nil; got != ok {
			t.Errorf("attn_type_list %s: modelled %v, want %v (%v)", list, got, ok, m.Modelled())
		}
	}
}

package catalog

import (
	"math"
	"testing"
)

// TestQwen3NextHybrid: Qwen3-Next-80B-A3B (catalog, verbatim config.json)
// read as vLLM's qwen3_next.py builds it, counted by hand: 12 full-attention
// layers (q_proj with its gate 2 × 16 × 256, k and v 2 × 256, o, q/k norms)
// and 36 Gated DeltaNet layers (in_proj_qkvz, in_proj_ba, conv1d, dt_bias,
// A_log, gated norm, out_proj), each with 512 experts of 512, a shared expert
// of 512 with its sigmoid gate and a router. The card says 80B total, 3B
// active.
func TestQwen3NextHybrid(t *testing.T) {
	m, err := LookupModel("qwen3-next-80b-a3b")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	if m.LinearLayerCount() != 36 || !m.IsLinearLayer(0) || m.IsLinearLayer(3) || !m.AttnOutputGate || m.GDN.SSMDType != "" {
		t.Fatalf("layers %v, gdn %+v", m.LayerTypes, m.GDN)
	}
	const h = 2048.0
	full := h*16*256*2 + 2*h*2*256 + 16*256*h + 2*256
	convDim := 16*128*2 + 32*128.0
	gdn := h*(2*16*128+2*32*128) + h*2*32 + convDim*4 + 2*32 + 32*128*h + 128
	expert := 3 * h * 512
	moe := 512*expert + (expert + h) + h*512
	want := 2*151936*h + 12*full + 36*gdn + 48*(moe+2*h) + h
	pc := m.ParamCounts()
	if math.Abs(pc.Total-want) > 1 {
		t.Errorf("total %.8g, want %.8g", pc.Total, want)
	}
	active := pc.Active(m)
	t.Logf("Qwen3-Next-80B-A3B: %.2fB total (card 80B), %.2fB active (card 3B; %.2fB without embeddings)", pc.Total/1e9, active/1e9, (active-2*151936*h)/1e9)
	if math.Abs(pc.Total/80e9-1) > 0.02 {
		t.Errorf("total %.2fB is off the card's 80B", pc.Total/1e9)
	}
	// State per sequence and layer at TP1 (vLLM's gated_delta_net_state_shape):
	// conv (8192, 3), temporal (32, 128, 128).
	if c, tmp := m.GDNStateElems(1); c != 8192*3 || tmp != 32*128*128 {
		t.Errorf("state elements %d + %d", c, tmp)
	}
	if c, tmp := m.GDNStateElems(4); c != 2048*3 || tmp != 8*128*128 {
		t.Errorf("TP4 state elements %d + %d", c, tmp)
	}
}

// TestQwen35Hybrids: Qwen3.5 (verbatim configs, multimodal wrappers) is the
// same hybrid under qwen3_5_moe_text / qwen3_5_text, its layer_types
// explicit and its recurrent state float32 (mamba_ssm_dtype). Cards:
// Qwen3.5-397B-A17B 397B total, 17B active; Qwen3.5-27B 27B (both
// including the vision encoder, which vlaunch counts apart in a note).
func TestQwen35Hybrids(t *testing.T) {
	for _, tt := range []struct {
		file      string
		linear    int
		published float64
	}{
		{"testdata/hf/qwen3.5-397b-a17b.verbatim.json", 45, 397e9},
		{"testdata/hf/qwen3.5-27b.verbatim.json", 48, 27e9},
	} {
		m, err := LoadHFConfig(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if m.LinearLayerCount() != tt.linear || m.GDN.SSMDType != "fp32" || len(m.Notes) != 1 {
			t.Errorf("%s: %d linear layers, gdn %+v, notes %q", tt.file, m.LinearLayerCount(), m.GDN, m.Notes)
		}
		total := m.ParamCounts().Total
		t.Logf("%s: %.2fB text model (card %.0fB with vision), %.2fB active; %s", tt.file, total/1e9, tt.published/1e9, m.ParamCounts().Active(m)/1e9, m.Notes[0])
		if d := total/tt.published - 1; d > 0.005 || d < -0.04 {
			t.Errorf("%s: %.2fB vs card %.0fB", tt.file, total/1e9, tt.published/1e9)
		}
	}
}

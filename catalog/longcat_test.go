package catalog

import (
	"math"
	"strings"
	"testing"
)

// TestLongCatFlashChat sizes LongCat-Flash-Chat (catalog/testdata/hf/
// longcat-flash-chat.reconstructed.json) as vLLM's longcat_flash.py builds
// it, every figure derived by hand:
//
//	embedding = lm_head = 131072 × 6144                       =     805,306,368
//	one MLA  = q_a 6144×1536 + q_a_norm 1536 + q_b 1536×64×192
//	         + kv_a 6144×576 + kv_a_norm 512 + kv_b 512×64×256
//	         + o 64×128×6144                                  =      90,572,800
//	one dense MLP = 3 × 6144 × 12288                          =     226,492,416
//	one expert    = 3 × 6144 × 2048                           =      37,748,736
//	router        = 6144 × (512 + 256) + bias 768 (fp32)      =       4,719,360
//	per decoder layer: 2 MLA + 2 MLP + 512 experts + router + 4 norms × 6144
//	                                                          =  19,966,227,200
//	total = 28 × that + 2 × 805,306,368 + final norm 6144     = 560,664,980,480
//
// against the card's 560B. The card's 18.6B–31.3B range is the total less
// the routed experts (28 × 512 × 37,748,736 = 541,165,879,296) and the
// input embedding: 18,693,794,816 with no real expert, + 12 × 28 ×
// 37,748,736 = 31,378,993,408 with twelve; its 27B average is then
// (27e9 − 18,693,794,816) / 1,056,964,608 = 7.8585 real experts per token.
// KV: 56 MLA layers × (512 + 64) × 2 B = 64,512 B per token.
func TestLongCatFlashChat(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/longcat-flash-chat.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	if m.ModelType != "longcat_flash" || !m.TrustRemoteCode || m.NumLayers != 56 || m.MoELayerCount() != 28 || m.LongCat.DecoderLayers != 28 {
		t.Fatalf("type %q remote %v layers %d moe %d decoder %d", m.ModelType, m.TrustRemoteCode, m.NumLayers, m.MoELayerCount(), m.LongCat.DecoderLayers)
	}
	p := m.ParamCounts()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"embedding", p.Embedding, 805306368},
		{"lm_head", p.LMHead, 805306368},
		{"attention per MLA", p.AttentionPerLayer, 90572800},
		{"attention", p.Attention, 56 * 90572800},
		{"dense MLP", p.DenseMLP, 56 * 226492416},
		{"expert", p.ExpertPerLayerEach, 37748736},
		{"routed", p.RoutedExperts, 541165879296},
		{"shared", p.SharedExperts, 0},
		{"router per layer", p.RouterPerLayer, 4719360},
		{"norms", p.Norms, 28*4*6144 + 6144},
		{"total", p.Total, 560664980480},
		{"active", p.Active(m), 27e9 + 805306368},
	} {
		if math.Abs(c.got-c.want) > 0.5 {
			t.Errorf("%s = %.1f, want %.0f", c.name, c.got, c.want)
		}
	}
	if d := math.Abs(p.Total/560e9 - 1); d > 0.002 {
		t.Errorf("total %.4gB is %.2f%% off the card's 560B", p.Total/1e9, 100*d)
	}
	base := p.Total - p.RoutedExperts - p.Embedding
	if lo, hi := base/1e9, (base+12*28*p.ExpertPerLayerEach)/1e9; math.Floor(lo*10)/10 != 18.6 || math.Floor(hi*10)/10 != 31.3 {
		t.Errorf("card range: %.3fB–%.3fB, want 18.6B–31.3B (truncated)", lo, hi)
	}
	if k := m.ExpectedFFNExpertsPerToken(); math.Abs(k-(27e9-18693794816)/1056964608) > 1e-9 || math.Abs(k-7.8585) > 1e-4 {
		t.Errorf("expected real experts %.6f, want 7.8585", k)
	}
	if got := m.MLACacheBytes(2) * m.NumLayers; got != 64512 {
		t.Errorf("KV per token %d B, want 64,512", got)
	}
	if m.RouterOutputs() != 768 || !m.RouterFP32 || !m.ScoreCorrectionBias || m.RouterBias {
		t.Errorf("router: outputs %d fp32 %v bias %v/%v", m.RouterOutputs(), m.RouterFP32, m.ScoreCorrectionBias, m.RouterBias)
	}
	for i := 0; i < m.NumLayers; i++ {
		if !m.HasAttention(i) || !m.HasDenseMLP(i) || m.IsMoELayer(i) != (i%2 == 0) {
			t.Fatalf("sub-layer %d: attention %v dense %v moe %v", i, m.HasAttention(i), m.HasDenseMLP(i), m.IsMoELayer(i))
		}
	}
	notes := strings.Join(m.Notes, " ")
	for _, w := range []string{"states no model_type: read as longcat_flash", "28 decoder layers read as 56 sub-layers", "expected real experts per token 7.86 of top-12", "weight-0 pair on expert 0"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q: %s", w, notes)
		}
	}

	// Without the card's average every pick counts (its 31.3B bound).
	UseLongCatCardAverage = false
	defer func() { UseLongCatCardAverage = true }()
	m2, err := LoadHFConfig("testdata/hf/longcat-flash-chat.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if k := m2.ExpectedFFNExpertsPerToken(); k != 12 {
		t.Errorf("switch off: %v real experts, want 12", k)
	}
}

// TestLongCatHitShare: expert 0 always, the others as k real picks
// uniformly over E: at one token (1 + 511 × 7.8585/512)/512.
func TestLongCatHitShare(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/longcat-flash-chat.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	k := m.ExpectedFFNExpertsPerToken()
	want := 1.0/512 + (511.0/512)*(k/512)
	if got := m.LongCatExpertHitShare(1); math.Abs(got-want) > 1e-12 {
		t.Errorf("hit share at 1 token %.6f, want %.6f", got, want)
	}
	if got := m.LongCatExpertHitShare(1e6); math.Abs(got-1) > 1e-9 {
		t.Errorf("hit share at 1e6 tokens %.9f, want 1", got)
	}
}

// TestLongCatSwiftShape: the Swift test's LongCat-shaped config (48
// layers, 128 experts of 1536 + 1 zero expert, top 8, ffn 18432) is sized
// with every pick a real expert (no average is stated for that shape).
// Hand: router 6144 × 129 + 129 per layer; KV 96 × 576 × 2 = 110,592 B.
func TestLongCatSwiftShape(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/longcat-flash-shape.swifttest.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	p := m.ParamCounts()
	if m.NumLayers != 96 || m.ExpectedFFNExpertsPerToken() != 8 || p.RouterPerLayer != 6144*129+129 || p.DenseMLPPerLayer != 3*6144*18432 || p.ExpertPerLayerEach != 3*6144*1536 {
		t.Errorf("layers %d experts/token %v router %v dense %v expert %v", m.NumLayers, m.ExpectedFFNExpertsPerToken(), p.RouterPerLayer, p.DenseMLPPerLayer, p.ExpertPerLayerEach)
	}
	if got := m.MLACacheBytes(2) * m.NumLayers; got != 110592 {
		t.Errorf("KV per token %d, want 110,592", got)
	}
	if !strings.Contains(strings.Join(m.Notes, " "), "no average stated for this shape") {
		t.Errorf("notes: %v", m.Notes)
	}
}

// TestLongCatRefusals: what FlashConfig reads but vlaunch does not size.
func TestLongCatRefusals(t *testing.T) {
	base := `"model_type": "longcat_flash", "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 100, "kv_lora_rank": 16, "q_lora_rank": 16, "qk_rope_head_dim": 8, "qk_nope_head_dim": 8, "v_head_dim": 8, "ffn_hidden_size": 128, "expert_ffn_hidden_size": 32, "n_routed_experts": 4, "moe_topk": 2`
	for _, tt := range []struct{ extra, want string }{
		{`"num_layers": 2, "zero_expert_num": 2`, `zero_expert_type ""`},
		{`"num_layers": 2, "num_hidden_layers": 4, "zero_expert_num": 2, "zero_expert_type": "identity"`, "num_hidden_layers 4 beside num_layers 2"},
		{`"num_layers": 2, "zero_expert_num": 2, "zero_expert_type": "identity", "disable_quant_module": ["mlps"]`, "disable_quant_module [mlps]"},
		{`"num_layers": 2, "zero_expert_num": 2, "zero_expert_type": "identity", "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128], "ignored_layers": ["lm_head"]}`, "self_attn.N, mlps.N"},
	} {
		m, err := ParseHFConfig([]byte("{" + base + ", " + tt.extra + "}"))
		if err != nil {
			t.Fatalf("%s: %v", tt.extra, err)
		}
		if err := m.Modelled(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.extra, err, tt.want)
		}
	}
	m, err := ParseHFConfig([]byte("{" + base + `, "num_layers": 2, "zero_expert_num": 2, "zero_expert_type": "identity"}`))
	if err != nil || m.Modelled() != nil {
		t.Fatalf("tiny LongCat: %v", err)
	}
	if m.MaxPositionEmbeddings != 8192 || m.NumLayers != 4 {
		t.Errorf("FlashConfig defaults: positions %d layers %d", m.MaxPositionEmbeddings, m.NumLayers)
	}
}

package catalog

import (
	"fmt"
	"math"
	"strings"
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

// TestMiMoV26Checkpoint reads MiMo-V2.6-Flash's config.json (model_type
// mimo_v2; testdata/hf/mimo-v2.6-flash.reconstructed.json, the Flash-RL
// release's fields) as vLLM builds it: the MiMo-V2-Flash decoder, a
// bfloat16 router, a second RoPE base for the sliding-window layers, and an
// FP8 config whose store_dtype mxfp4 puts the routed experts in MXFP4 while
// ignored_layers keeps every o_proj in BF16 (q/k/v stay FP8).
func TestMiMoV26Checkpoint(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/mimo-v2.6-flash.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	q := m.Quant
	if q.Method != "fp8" || q.ExpertFormat != "mxfp4" || q.MXFP4Block != 32 || m.CheckpointDType() != "fp8" {
		t.Errorf("quantization %+v, checkpoint dtype %s: want fp8 with MXFP4 experts (blocks of 32)", q, m.CheckpointDType())
	}
	if m.RouterFP32 || m.MiMo == nil || !m.MiMo.SeparateSWARope || m.SlidingWindow != 128 || m.MoELayerCount() != 47 {
		t.Errorf("router fp32 %v, MiMo %+v, window %d, %d MoE layers", m.RouterFP32, m.MiMo, m.SlidingWindow, m.MoELayerCount())
	}
	s := q.Shares
	if s == nil {
		t.Fatal("no shares for an FP8 config with ignored_layers")
	}
	for name, want := range map[string]float64{"self_attn.q_proj": 1, "self_attn.k_proj": 1, "self_attn.v_proj": 1, "self_attn.o_proj": 0} {
		if got := s.AttnModules[name]; got != want {
			t.Errorf("%s quantized in %.2f of the layers, want %.0f", name, got, want)
		}
	}
	if n := strings.Join(m.Notes, " "); !strings.Contains(n, "vision encoder's weights (vision_config) are not counted") ||
		!strings.Contains(n, "audio tower's (audio_config)") {
		t.Errorf("notes %q do not say that neither tower is counted", n)
	}
	if s.Routed != 1 || s.DenseMLP != 1 {
		t.Errorf("routed %.2f, dense MLP %.2f quantized: the list names o_proj only", s.Routed, s.DenseMLP)
	}
	// One TP-8 rank: 8 query heads, 1 KV head (4 and 8 KV heads both end
	// at one per rank). q 4096×8×192 + k 4096×192 + v 4096×128 in FP8,
	// o_proj 8×128×4096 in BF16: V is 128 wide, not head_dim's 192.
	qkv, o := 4096.0*(8*192+192+128), 8*128*4096.0
	if got, want := m.AttentionQuantShare(8, 1), qkv/(qkv+o); math.Abs(got-want) > 1e-12 {
		t.Errorf("attention quantized share %.6f, hand %.6f", got, want)
	}
	// Hand counts: the V2-Flash decoder, with a bfloat16 router (its
	// parameter count does not change) and no MTP layers counted.
	const h, e, mi, v = 4096.0, 256.0, 2048.0, 152576.0
	swa := h*(64*192+8*192+8*128) + 64*128*h + 64
	full := h*(64*192+4*192+4*128) + 64*128*h
	total := 39*swa + 9*full + 47*(e*3*h*mi+h*e+e) + 3*h*16384 + 48*2*h + 2*v*h + h
	if pc := m.ParamCounts(); math.Abs(pc.Total-total) > 1 {
		t.Errorf("total %.10g, hand %.10g", pc.Total, total)
	}
}

// TestStoreDTypeRefusals: store_dtype values vLLM's Fp8Config does not
// route to Mxfp4MoEMethod, or MXFP4 blocks other than 32, are refused, not
// sized as FP8.
func TestStoreDTypeRefusals(t *testing.T) {
	base := `{"model_type": "qwen3_moe", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
		"vocab_size": 100, "intermediate_size": 128, "moe_intermediate_size": 32, "num_experts": 4, "num_experts_per_tok": 2,
		"quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]%s}}`
	for _, tt := range []struct {
		extra  string
		refuse bool
		format string
	}{
		{``, false, ""},
		{`, "store_dtype": "fp8"`, false, ""},
		{`, "store_dtype": "mxfp4"`, false, "mxfp4"},
		{`, "store_dtype": "mxfp4", "mxfp4_block_size": 32`, false, "mxfp4"},
		{`, "store_dtype": "mxfp4", "mxfp4_block_size": 16`, true, "mxfp4"},
		{`, "store_dtype": "nvfp4"`, true, ""},
	} {
		m, err := ParseHFConfig([]byte(fmt.Sprintf(base, tt.extra)))
		if err != nil {
			t.Fatalf("%s: %v", tt.extra, err)
		}
		if got := m.Modelled() != nil; got != tt.refuse || m.Quant.ExpertFormat != tt.format {
			t.Errorf("%q: refused %v (want %v), expert format %q (want %q)", tt.extra, got, tt.refuse, m.Quant.ExpertFormat, tt.format)
		}
	}
}

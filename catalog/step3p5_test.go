package catalog

import (
	"math"
	"os"
	"strings"
	"testing"
)

// TestStep3p5Flash reads Step-3.5-Flash (testdata/hf/step-3.5-flash.
// verbatim.json: stepfun-ai/Step-3.5-Flash's config.json as NVIDIA
// Megatron-Bridge's Step-3.5 tests vendor it: yevvonlim/Megatron-Bridge at
// 202306025842 tests/unit_tests/models/step3p5/_reference/config.json, whole) as
// vLLM's step3p5.py builds it and counts it by hand: 12 full-attention
// layers (layer_types[i], i % 4 == 0) of 64 query heads and 33
// sliding-window layers of 96 (attention_other_setting), all with 8 KV heads
// of 128, q/k norms of 128 and a head-wise gate (g_proj, hidden × heads);
// layers 0-2 a dense MLP of 11,264, layers 3-44 288 experts of 1,280 (top 8)
// with one shared expert of 1,280, a float32 gate and router bias; two
// norms per layer; untied embeddings of 128,896 × 4,096. The 48-entry
// layer_types' last 3 are the MTP layers vLLM's main model skips. The card
// and vLLM's recipe say 196B total, 11B active.
func TestStep3p5Flash(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/step-3.5-flash.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h, e, mi, v, hd = 4096.0, 288.0, 1280.0, 128896.0, 128.0
	full := h*64*hd + 2*h*8*hd + 64*hd*h + 2*hd + h*64
	swa := h*96*hd + 2*h*8*hd + 96*hd*h + 2*hd + h*96
	moe := e*3*h*mi + 3*h*mi + h*e + e
	dense := 3 * h * 11264
	total := 12*full + 33*swa + 42*moe + 3*dense + 45*2*h + 2*v*h + h
	// 196,956,130,368 by hand.
	if total != 196956130368 {
		t.Fatalf("hand count %.0f", total)
	}
	pc := m.ParamCounts()
	if math.Abs(pc.Total-total) > 1 {
		t.Errorf("total %.12g, hand %.12g", pc.Total, total)
	}
	active := pc.Active(m)
	handActive := total - 42*(e-8)*3*h*mi
	if math.Abs(active-handActive) > 1 {
		t.Errorf("active %.12g, hand %.12g", active, handActive)
	}
	t.Logf("Step-3.5-Flash %.2fB total, %.2fB active (card 196B / 11B)", pc.Total/1e9, active/1e9)
	if math.Abs(pc.Total/196e9-1) > 0.01 {
		t.Errorf("%.4gB off the card's 196B", pc.Total/1e9)
	}
	sliding := 0
	for i := 0; i < m.NumLayers; i++ {
		if m.IsSlidingLayer(i) {
			sliding++
		}
	}
	if len(m.LayerTypes) != 45 || sliding != 33 || m.SlidingWindow != 512 || m.MoELayerCount() != 42 || m.IsMoELayer(2) || !m.IsMoELayer(3) {
		t.Errorf("%d layer types, %d sliding layers, window %d, %d MoE layers", len(m.LayerTypes), sliding, m.SlidingWindow, m.MoELayerCount())
	}
	// need_fp32_gate: true and moe_router_scaling_factor: 3.0 in the config.
	if s := m.Step3p5; !s.FP32Gate || s.RouterScale != 3 || !s.HeadGate {
		t.Errorf("fp32 gate %v, router scaling %v, head gate %v", s.FP32Gate, s.RouterScale, s.HeadGate)
	}
	if m.LayerHeads(0) != 64 || m.LayerHeads(1) != 96 {
		t.Errorf("heads: layer 0 %d, layer 1 %d", m.LayerHeads(0), m.LayerHeads(1))
	}
	for _, i := range []int{0, 1} {
		if kv, k, vd := m.LayerKV(i); kv != 8 || k != 128 || vd != 128 {
			t.Errorf("layer %d: %d × (%d + %d)", i, kv, k, vd)
		}
	}
	// TP 8: each rank holds 8 and 12 query heads, 1 KV head.
	rank := m.AttentionParams(8, 1)
	fullR := h*8*hd + 2*h*1*hd + 8*hd*h + 2*hd + h*8
	swaR := h*12*hd + 2*h*1*hd + 12*hd*h + 2*hd + h*12
	if want := (12*fullR + 33*swaR) / 45; math.Abs(rank-want) > 1e-3 {
		t.Errorf("TP8 attention per layer %.6g, hand %.6g", rank, want)
	}
	if p := m.TPSplitProblem(8); p != "" {
		t.Errorf("TP 8 refused: %s", p)
	}
	if p := m.TPSplitProblem(64); !strings.Contains(p, "96") {
		t.Errorf("TP 64 (96 sliding heads do not divide): %q", p)
	}
}

// TestStep3p5Refusals: what vLLM would build differently, or cannot read,
// is refused rather than sized.
func TestStep3p5Refusals(t *testing.T) {
	base := `"model_type": "step3p5", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "num_attention_groups": 2, "vocab_size": 100, "head_dim": 16, "sliding_window": 8,
		"moe_num_experts": 4, "moe_top_k": 2, "moe_intermediate_size": 32, "share_expert_dim": 32`
	for name, tc := range map[string]struct{ extra, want string }{
		"short layer_types":  {`, "layer_types": ["full_attention"], "moe_layers_enum": "1"`, "layer_types has 1 entries"},
		"enum not a string":  {`, "layer_types": ["full_attention", "sliding_attention"], "moe_layers_enum": [1]`, "not a string"},
		"enum not a number":  {`, "layer_types": ["full_attention", "sliding_attention"], "moe_layers_enum": "1,x"`, "not a layer index"},
		"wider shared":       {`, "layer_types": ["full_attention", "sliding_attention"], "moe_layers_enum": "1", "share_expert_dim": 64`, "share_expert_dim 64"},
		"other type":         {`, "layer_types": ["full_attention", "chunked"], "attention_other_setting": {"attention_type": "chunked", "num_attention_heads": 8}`, "only sliding_attention"},
		"zero sliding heads": {`, "layer_types": ["full_attention", "sliding_attention"], "attention_other_setting": {"attention_type": "sliding_attention", "num_attention_groups": 8}`, "heads not positive"},
	} {
		m, err := ParseHFConfig([]byte("{" + base + tc.extra + "}"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		err = m.Modelled()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	// Without moe_layers_enum vLLM puts experts in every layer but the first.
	m, err := ParseHFConfig([]byte("{" + base + `, "num_hidden_layers": 3, "layer_types": ["full_attention", "sliding_attention", "sliding_attention"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil || m.IsMoELayer(0) || m.MoELayerCount() != 2 {
		t.Errorf("default MoE layers: %v, %d", err, m.MoELayerCount())
	}
}

// TestStep3p5FP8Split: vLLM's recipe (vllm-project/recipes models/stepfun-ai/
// Step-3.5-Flash.yaml at 109af2d) says the FP8 checkpoint (128 × 128 weight
// blocks) runs at TP 1 or 2 only: "TP=4 fails (1280/4=320, 320%128≠0)".
// The experts' and shared expert's 1,280 split over TP must stay whole blocks.
func TestStep3p5FP8Split(t *testing.T) {
	data, err := os.ReadFile("testdata/hf/step-3.5-flash.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), `"model_type": "step3p5",`,
		`"model_type": "step3p5", "quantization_config": {"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]},`, 1))
	m, err := ParseHFConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	for tp, ok := range map[int]bool{1: true, 2: true, 4: false, 8: false} {
		if p := m.BlockSplitProblem(tp, tp); (p == "") != ok {
			t.Errorf("TP %d: %q", tp, p)
		}
	}
}

// TestStep3p5CatalogIsVerbatim: the catalog's stepfun-ai/Step-3.5-Flash is
// the vendored config.json byte for byte (the fixture the hand counts read),
// and the keys the reconstruction it replaced lacked (moe_layer_offset,
// moe_every_n_layer, sink, use_rope_layers, zero_centered) change nothing
// vLLM's step3p5.py sizes: the counts match the fixture's.
func TestStep3p5CatalogIsVerbatim(t *testing.T) {
	fixture, err := os.ReadFile("testdata/hf/step-3.5-flash.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := modelFiles.ReadFile("models/stepfun-ai__Step-3.5-Flash.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(fixture) != string(embedded) {
		t.Error("catalog/models/stepfun-ai__Step-3.5-Flash.json differs from the vendored fixture")
	}
	m, err := LookupModel("stepfun-ai/Step-3.5-Flash")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	if pc := m.ParamCounts(); math.Abs(pc.Total-196956130368) > 1 {
		t.Errorf("catalog step-3.5-flash counts %.0f, the hand count 196,956,130,368", pc.Total)
	}
}

package catalog

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// TestLingMini2 sizes inclusionAI/Ling-mini-2.0 (catalog/testdata/hf/
// ling-mini-2.0.reconstructed.json) as vLLM's bailing_moe.py builds it
// (catalog/bailing.go), counted by hand: 20 layers of attention, q and o
// 2,048 × 2,048 (16 heads of 128), k and v 2,048 × 512 (4 KV heads), no
// biases, q/k norms of 128 (10,486,016); two norms of 2,048; layer 0 a
// dense MLP of 3 × 2,048 × 5,120; layers 1–19 256 experts of
// 3 × 2,048 × 512 = 3,145,728, one shared expert of the same width, a
// 2,048 × 256 gate and 256 float32 expert biases; untied embeddings of
// 157,184 × 2,048 and the final norm: 16,255,643,392 parameters,
// 1,432,973,056 active (8 of 256 experts), 789,147,392 of them outside the
// embedding and LM head. The card (inclusionAI/Ling-mini-2.0): "16B total
// parameters, … 1.4B are activated per input token (non-embedding 789M)";
// DeepWiki's Ling-V2 model-variants page: 16.26B, 1.43B, 789M.
func TestLingMini2(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/ling-mini-2.0.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h = 2048.0
	attn := 2*h*16*128 + 2*h*4*128 + 2*128
	expert := 3 * h * 512
	moeLayer := 256*expert + expert + h*256 + 256
	embed := 2 * 157184 * h
	want := 20*(attn+2*h) + 3*h*5120 + 19*moeLayer + embed + h
	if want != 16255643392 {
		t.Fatalf("hand count %.0f", want)
	}
	pc := m.ParamCounts()
	active := pc.Active(m)
	if math.Abs(pc.Total-want) > 0.5 || math.Abs(active-(want-19*248*expert)) > 0.5 {
		t.Errorf("%.0f parameters, %.0f active; want %.0f, %.0f", pc.Total, active, want, want-19*248*expert)
	}
	if math.Abs(pc.Total-16.26e9) > 0.01e9 || math.Abs(active-1.43e9) > 0.01e9 || math.Abs(active-embed-789e6) > 1e6 {
		t.Errorf("%.3f B total, %.3f B active, %.1f M active without embeddings; card 16.26B, 1.43B, 789M", pc.Total/1e9, active/1e9, (active-embed)/1e6)
	}
	if !m.QKNorm || m.QKNormAllHeads || m.AttentionBias || !m.ScoreCorrectionBias || m.RouterFP32 || m.NumSharedExperts != 1 || m.MoELayerCount() != 19 || !m.TrustRemoteCode {
		t.Errorf("qk norm %v (all heads %v), bias %v, expert bias %v, fp32 router %v, shared %d, MoE layers %d, trust_remote_code %v",
			m.QKNorm, m.QKNormAllHeads, m.AttentionBias, m.ScoreCorrectionBias, m.RouterFP32, m.NumSharedExperts, m.MoELayerCount(), m.TrustRemoteCode)
	}
}

// TestBailingVariants: router_dtype fp32 keeps the gate in float32;
// use_qkv_bias adds q/k/v biases only; use_bias (biases on every MLP too) and
// a shared expert of another width than the routed ones are refused, naming
// bailing_moe.
func TestBailingVariants(t *testing.T) {
	base, err := os.ReadFile("testdata/hf/ling-mini-2.0.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(set map[string]any) []byte {
		var c map[string]any
		if err := json.Unmarshal(base, &c); err != nil {
			t.Fatal(err)
		}
		for k, v := range set {
			c[k] = v
		}
		out, _ := json.Marshal(c)
		return out
	}
	for _, tt := range []struct {
		name             string
		set              map[string]any
		fp32, qkv, oBias bool
		refuse           string
	}{
		{"router fp32", map[string]any{"router_dtype": "fp32"}, true, false, false, ""},
		{"qkv bias", map[string]any{"use_qkv_bias": true}, false, true, false, ""},
		{"use_bias", map[string]any{"use_bias": true}, false, false, false, "use_bias true"},
		{"wide shared", map[string]any{"moe_shared_expert_intermediate_size": 1024}, false, false, false, "moe_shared_expert_intermediate_size 1024"},
	} {
		m, err := ParseHFConfig(edit(tt.set))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		err = m.Modelled()
		if tt.refuse != "" {
			var ue *UnmodelledError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.refuse) || !strings.Contains(err.Error(), "bailing_moe") ||
				!strings.Contains(err.Error(), "the nearest family it models is Ling / Ring as published") {
				t.Errorf("%s: %v, want a refusal naming %q and bailing_moe", tt.name, err, tt.refuse)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if m.RouterFP32 != tt.fp32 || m.AttentionBias != tt.qkv || m.OProjBias != tt.oBias {
			t.Errorf("%s: fp32 router %v, qkv bias %v, o_proj bias %v", tt.name, m.RouterFP32, m.AttentionBias, m.OProjBias)
		}
	}
}

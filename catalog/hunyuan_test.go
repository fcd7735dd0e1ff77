package catalog

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// TestHunyuanA13B sizes tencent/Hunyuan-A13B-Instruct (catalog/testdata/hf/
// hunyuan-a13b-instruct.reconstructed.json) as vLLM's hunyuan_v1.py builds
// it (catalog/hunyuan.go), counted by hand: 32 layers of attention, q and o
// 4,096 × 4,096 (32 heads of attention_head_dim 128), k and v 4,096 × 1,024
// (8 KV heads), no biases, q/k RMSNorms of 128; two norms of 4,096; in every
// layer 64 experts of 3 × 4,096 × 3,072 = 37,748,736 (moe_intermediate_size
// and moe_topk are per-layer lists of 3,072 and 8), a shared MLP of
// intermediate_size 3,072 × num_shared_expert 1 and a 4,096 × 64 gate;
// tied embeddings of 128,167 × 4,096 and the final norm: 80,393,183,232
// parameters, 12,747,448,320 active (8 of 64 experts). The card
// (tencent/Hunyuan-A13B-Instruct, as xugj520.cn's write-up tables it):
// 80 billion total, 13 billion activated, 1 shared + 64 experts, top-8.
// Before, LoadHFConfig failed with "config.json is not valid JSON" on the
// list-valued moe_intermediate_size.
func TestHunyuanA13B(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/hunyuan-a13b-instruct.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h = 4096.0
	expert := 3 * h * 3072
	layer := 2*h*32*128 + 2*h*8*128 + 2*128 + 2*h + 64*expert + expert + h*64
	want := 32*layer + 128167*h + h
	if want != 80393183232 {
		t.Fatalf("hand count %.0f", want)
	}
	pc := m.ParamCounts()
	if a := pc.Active(m); math.Abs(pc.Total-want) > 0.5 || math.Abs(a-(want-32*56*expert)) > 0.5 {
		t.Errorf("%.0f parameters, %.0f active; want %.0f, %.0f", pc.Total, a, want, want-32*56*expert)
	}
	if math.Abs(pc.Total-80e9) > 1e9 || math.Abs(pc.Active(m)-13e9) > 0.5e9 {
		t.Errorf("%.2f B total, %.2f B active against the card's 80B / 13B", pc.Total/1e9, pc.Active(m)/1e9)
	}
	if m.HeadDim != 128 || !m.QKNorm || m.AttentionBias || m.NumSharedExperts != 1 || m.ExpertsPerToken != 8 || m.MoELayerCount() != 32 || m.RouterFP32 || m.ScoreCorrectionBias || !m.TrustRemoteCode {
		t.Errorf("head %d, qk norm %v, bias %v, shared %d, top-%d, MoE layers %d, fp32 router %v, correction bias %v, trust_remote_code %v",
			m.HeadDim, m.QKNorm, m.AttentionBias, m.NumSharedExperts, m.ExpertsPerToken, m.MoELayerCount(), m.RouterFP32, m.ScoreCorrectionBias, m.TrustRemoteCode)
	}
	if kv := m.NumLayers * 2 * m.NumKVHeads * m.HeadDim * 2; kv != 131072 {
		t.Errorf("KV %d B per token, want 131,072", kv)
	}
}

// TestHunyuanVariants: cross-layer attention, per-layer lists that differ,
// a shared MLP wider than the experts, and the older HunYuanForCausalLM
// architecture (not in vLLM's registry) are refused naming hunyuan_v1; the
// dense HunYuanDenseV1ForCausalLM is sized as GQA with QK norm; and a list
// where another family's vLLM model reads one integer is refused naming
// the key, not failed as invalid JSON.
func TestHunyuanVariants(t *testing.T) {
	base, err := os.ReadFile("testdata/hf/hunyuan-a13b-instruct.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(set map[string]any) []byte {
		var c map[string]any
		if err := json.Unmarshal(base, &c); err != nil {
			t.Fatal(err)
		}
		for k, v := range set {
			if v == nil {
				delete(c, k)
				continue
			}
			c[k] = v
		}
		out, _ := json.Marshal(c)
		return out
	}
	mixed := make([]int, 32)
	for i := range mixed {
		mixed[i] = 8 - i%2
	}
	for _, tt := range []struct {
		name   string
		set    map[string]any
		refuse string
		params float64
	}{
		{"cla", map[string]any{"use_cla": true, "cla_share_factor": 2}, "use_cla true", 0},
		{"mixed topk", map[string]any{"moe_topk": mixed}, "moe_topk [8 7", 0},
		{"wide shared", map[string]any{"intermediate_size": 6144}, "a shared MLP of intermediate_size 6144", 0},
		{"old architecture", map[string]any{"architectures": []string{"HunYuanForCausalLM"}}, `architecture "HunYuanForCausalLM"`, 0},
		// Hunyuan dense: 32 × (attention + q/k norms + 3 × 4,096 × 14,336 + two
		// norms) + tied 128,167 × 4,096 + the final norm.
		{"dense", map[string]any{"model_type": "hunyuan_v1_dense", "architectures": []string{"HunYuanDenseV1ForCausalLM"}, "num_experts": 1, "intermediate_size": 14336,
			"moe_intermediate_size": nil, "moe_topk": nil, "num_shared_expert": nil, "use_mixed_mlp_moe": false},
			"", 32*(2*4096*4096+2*4096*1024+256+3*4096*14336+2*4096) + 128167*4096 + 4096},
	} {
		m, err := ParseHFConfig(edit(tt.set))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		err = m.Modelled()
		if tt.refuse != "" {
			var ue *UnmodelledError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.refuse) || !strings.Contains(err.Error(), "hunyuan_v1") ||
				!strings.Contains(err.Error(), "the nearest family it models is Hunyuan-A13B as published") || strings.Contains(err.Error(), "point model.config") {
				t.Errorf("%s: %v, want a refusal naming %q and hunyuan_v1", tt.name, err, tt.refuse)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if pc := m.ParamCounts(); math.Abs(pc.Total-tt.params) > 0.5 || m.IsMoE() {
			t.Errorf("%s: %.0f parameters (MoE %v), want %.0f dense", tt.name, pc.Total, m.IsMoE(), tt.params)
		}
	}
	q, err := os.ReadFile("models/Qwen__Qwen3-30B-A3B.json")
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(q, &c); err != nil {
		t.Fatal(err)
	}
	c["moe_intermediate_size"] = make([]int, 48)
	data, _ := json.Marshal(c)
	m, err := ParseHFConfig(data)
	if err != nil {
		t.Fatalf("a list-valued moe_intermediate_size: %v, want a parsed config refused by Modelled", err)
	}
	if err := m.Modelled(); err == nil || !strings.Contains(err.Error(), "moe_intermediate_size as a per-layer list") {
		t.Errorf("qwen3_moe with a list moe_intermediate_size: %v", err)
	}
}

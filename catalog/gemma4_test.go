package catalog

import (
	"math"
	"strings"
	"testing"
)

// gemma4Hand counts a Gemma 4 language model by hand as vLLM's gemma4.py
// builds it: per layer q/k/v/o (the v slot allocated even in k_eq_v global
// layers) of the layer's head size and KV heads, q and k norms, a gated MLP,
// four norms; with the MoE block three more norms, the experts (gate, up,
// down) and the router (projection, scale, per-expert scale); tied
// embeddings and the final norm.
func gemma4Hand(h, heads, kv, hd, gkv, ghd, inter, experts, moeInter, vocab int, types []string) (total, kEqVSlots float64) {
	H := float64(h)
	for _, t := range types {
		k, d := float64(kv), float64(hd)
		if t == "full_attention" {
			k, d = float64(gkv), float64(ghd)
			kEqVSlots += H * k * d
		}
		total += H*float64(heads)*d + 2*H*k*d + float64(heads)*d*H + 2*d + 3*H*float64(inter) + 4*H
		if experts > 0 {
			total += 3*H + float64(experts)*3*H*float64(moeInter) + H*float64(experts) + H + float64(experts)
		}
	}
	return total + float64(vocab)*H + H, kEqVSlots
}

// TestGemma4 reads Gemma 4 26B-A4B and 31B (testdata/hf/*.verbatim.json,
// aiconfigurator's copies of the published config.json; the 31B one is
// NVIDIA's NVFP4 re-quantization, whose architecture fields are the
// original's) and checks the counts against a hand count and the model card's
// 25.2B total / 3.8B active and 30.7B (Hugging Face card, as quoted by
// featherless.ai/models/google/gemma-4-26B-A4B-it and the card summary at
// ccm-design-engineer.netlify.app; vLLM's recipes round them to 26B / 4B and
// 31B). vLLM allocates a v slot in the k_eq_v global layers that the
// checkpoint does not ship: the checkpoint's count is the total less those.
func TestGemma4(t *testing.T) {
	for _, tt := range []struct {
		file                                     string
		h, heads, kv, gkv, inter, experts, moeIn int
		card, cardActive                         float64
	}{
		{"gemma-4-26b-a4b.verbatim.json", 2816, 16, 8, 2, 2112, 128, 704, 25.2e9, 3.8e9},
		{"gemma-4-31b-it-nvfp4.verbatim.json", 5376, 32, 16, 4, 21504, 0, 0, 30.7e9, 30.7e9},
	} {
		m, err := LoadHFConfig("testdata/hf/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if m.Gemma4 == nil || m.SlidingWindow != 1024 || !m.TieWordEmbeddings || m.ModelType != "gemma4_text" || m.Wrapper != "gemma4" {
			t.Fatalf("%s: read as %+v", tt.file, m)
		}
		total, slots := gemma4Hand(tt.h, tt.heads, tt.kv, 256, tt.gkv, 512, tt.inter, tt.experts, tt.moeIn, 262144, m.LayerTypes)
		pc := m.ParamCounts()
		if math.Abs(pc.Total-total) > 1 {
			t.Errorf("%s: total %.10g, hand %.10g", tt.file, pc.Total, total)
		}
		ckpt := pc.Total - slots
		t.Logf("%s: %.3fB as vLLM allocates it, %.3fB in the checkpoint, %.3fB active (card %.1fB / %.1fB)", tt.file, pc.Total/1e9, ckpt/1e9, pc.Active(m)/1e9, tt.card/1e9, tt.cardActive/1e9)
		if math.Abs(ckpt/tt.card-1) > 0.005 || math.Abs(pc.Active(m)-slots-tt.cardActive) > 0.05e9 {
			t.Errorf("%s: %.4gB checkpoint, %.4gB active off the card", tt.file, ckpt/1e9, pc.Active(m)/1e9)
		}
		// The global layers' own KV heads and head size.
		if kv, hd, _ := m.LayerKV(5); kv != tt.gkv || hd != 512 {
			t.Errorf("%s: layer 5 (global) %d × %d", tt.file, kv, hd)
		}
		if kv, hd, _ := m.LayerKV(0); kv != tt.kv || hd != 256 {
			t.Errorf("%s: layer 0 (sliding) %d × %d", tt.file, kv, hd)
		}
	}
}

// TestGemma4Refusals: the E2B/E4B features vlaunch does not model are
// refused, naming them.
func TestGemma4Refusals(t *testing.T) {
	base := `{"model_type": "gemma4_text", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
		"vocab_size": 100, "intermediate_size": 32, "sliding_window": 8, "layer_types": ["sliding_attention", "full_attention"],
		"global_head_dim": 32, "num_global_key_value_heads": 1, "attention_k_eq_v": true, `
	for _, tt := range []struct{ tail, want string }{
		{`"num_kv_shared_layers": 0}`, ""},
		{`"num_kv_shared_layers": 1}`, "num_kv_shared_layers"},
		{`"hidden_size_per_layer_input": 8}`, "hidden_size_per_layer_input"},
		{`"enable_moe_block": true}`, "enable_moe_block without num_experts"},
	} {
		m, err := ParseHFConfig([]byte(base + tt.tail))
		if err != nil {
			t.Fatalf("%s: %v", tt.tail, err)
		}
		err = m.Modelled()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.tail, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "Gemma 4 without them")):
			t.Errorf("%s: %v, want %q", tt.tail, err, tt.want)
		}
	}
}

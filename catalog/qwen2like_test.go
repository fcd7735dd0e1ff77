package catalog

import (
	"math"
	"testing"
)

// TestQwen2Decoders sizes the model_types vLLM builds with Qwen2's decoder
// (catalog/qwen2like.go) from their config.json, counted by hand from vLLM's
// model files: per layer q (h × heads·d) and o (heads·d × h), k and v
// (h × kv·d each), q/k/v biases (heads·d + 2 kv·d), o_proj without bias, a
// SwiGLU MLP of 3 × h × intermediate, two RMSNorms of h; the embedding, an
// untied LM head, the final norm. The KV cache holds K and V of kv·d per
// layer (BF16: 4 · kv · d bytes per layer per token).
//
//   - XiaomiMiMo/MiMo-7B-Base (verbatim, aiconfigurator @095f58a5): 36
//     layers, h 4,096, 32 heads and 8 KV heads of 128, intermediate 11,008,
//     vocab 151,680 untied: 7,622,619,136. Hugging Face lists the MiMo-7B
//     checkpoints at "params 7.8B" (XiaomiMiMo/MiMo-7B-RL-Zero as
//     onlylabs.fyi captures its page), which also holds the one MTP layer
//     vLLM's MiMoModel skips (mtp_layers: a Qwen2 decoder layer of
//     177,223,680, its 2h × h input_proj of 33,554,432 and three norms):
//     7.834 B with it.
//   - ByteDance-Seed/Seed-OSS-36B-Instruct (reconstructed from a public
//     test's copy): 64 layers, h 5,120, 80 heads and 8 KV heads of 128
//     (head_dim 128, not 5,120 / 80), intermediate 27,648, vocab 155,136
//     untied: 36,151,104,512, the card's "36B".
func TestQwen2Decoders(t *testing.T) {
	for _, tt := range []struct {
		file                                  string
		textType                              string
		layers, h, heads, kv, d, inter, vocab float64
		want, card, cardTol                   float64
		trustRemoteCode                       bool
		mtp                                   int
	}{
		{"testdata/hf/mimo-7b-base.verbatim.json", "mimo", 36, 4096, 32, 8, 128, 11008, 151680, 7622619136, 7.8e9, 0.05e9, true, 1},
		{"testdata/hf/seed-oss-36b-instruct.reconstructed.json", "seed_oss", 64, 5120, 80, 8, 128, 27648, 155136, 36151104512, 36e9, 0.5e9, false, 0},
	} {
		m, err := LoadHFConfig(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if m.ModelType != "qwen2" || m.TextModelType != tt.textType || m.TrustRemoteCode != tt.trustRemoteCode || m.NumNextNPredictLayers != tt.mtp {
			t.Errorf("%s: type %q (%q), trust_remote_code %v, MTP %d; want qwen2 (%q), %v, %d",
				tt.file, m.ModelType, m.TextModelType, m.TrustRemoteCode, m.NumNextNPredictLayers, tt.textType, tt.trustRemoteCode, tt.mtp)
		}
		if !m.AttentionBias || m.OProjBias || m.QKNorm || m.SlidingWindow != 0 || m.IsMoE() || m.HeadDim != int(tt.d) || m.NumKVHeads != int(tt.kv) {
			t.Errorf("%s: bias %v o_proj bias %v qk norm %v window %d MoE %v head %d kv %d; want q/k/v biases only, no QK norm, no window, dense, %v heads of %v",
				tt.file, m.AttentionBias, m.OProjBias, m.QKNorm, m.SlidingWindow, m.IsMoE(), m.HeadDim, m.NumKVHeads, tt.kv, tt.d)
		}
		h := tt.h
		attn := 2*h*tt.heads*tt.d + 2*h*tt.kv*tt.d + tt.heads*tt.d + 2*tt.kv*tt.d
		layer := attn + 3*h*tt.inter + 2*h
		want := tt.layers*layer + 2*tt.vocab*h + h
		if want != tt.want {
			t.Fatalf("%s: the hand count %.0f is not the documented %.0f", tt.file, want, tt.want)
		}
		pc := m.ParamCounts()
		if math.Abs(pc.Total-want) > 0.5 {
			t.Errorf("%s: %.0f parameters, want %.0f", tt.file, pc.Total, want)
		}
		if math.Abs(pc.Total-tt.card) > tt.cardTol && math.Abs(pc.Total+float64(tt.mtp)*(layer+2*h*h+3*h)-tt.card) > tt.cardTol {
			t.Errorf("%s: %.3f B parameters (with MTP layers %.3f B) against the card's %.1f B", tt.file, pc.Total/1e9, (pc.Total+float64(tt.mtp)*(layer+2*h*h+3*h))/1e9, tt.card/1e9)
		}
	}
}

// TestMinistral3: a ministral3 config (text-only, architectures
// Ministral3ForCausalLM as Devstral-2 ships, or a mistral3 wrapper's
// text_config) is sized exactly as the same config under model_type
// mistral (catalog/qwen2like.go: vLLM's registry maps Ministral3ForCausalLM
// to MistralForCausalLM). The shape is Ministral-3-8B's as a public
// architecture note quotes its text_config (hidden 4,096, 34 layers, 32
// heads, 8 KV heads of 128, YaRN; code search index id 23183103280), with
// intermediate_size 14,336 and vocab 131,072 written in (not in that note).
// Before, ministral3 was refused as an unknown model_type.
func TestMinistral3(t *testing.T) {
	text := `"hidden_size": 4096, "num_hidden_layers": 34, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
		"intermediate_size": 14336, "vocab_size": 131072, "tie_word_embeddings": false, "sliding_window": null,
		"rope_parameters": {"rope_type": "yarn", "factor": 16.0, "mscale": 1.0, "original_max_position_embeddings": 16384, "llama_4_scaling_beta": 0.1, "rope_theta": 1000000.0}`
	ref, err := ParseHFConfig([]byte(`{"architectures": ["MistralForCausalLM"], "model_type": "mistral", ` + text + `}`))
	if err != nil {
		t.Fatal(err)
	}
	want := ref.ParamCounts().Total
	for _, cfg := range []string{
		`{"architectures": ["Ministral3ForCausalLM"], "model_type": "ministral3", ` + text + `}`,
		`{"architectures": ["Mistral3ForConditionalGeneration"], "model_type": "mistral3", "text_config": {"model_type": "ministral3", ` + text + `}}`,
	} {
		m, err := ParseHFConfig([]byte(cfg))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err != nil {
			t.Fatalf("%s: %v", cfg, err)
		}
		if got := m.ParamCounts().Total; got != want || m.ModelType != "mistral" || m.TextModelType != "ministral3" || m.HeadDim != 128 || m.SlidingWindow != 0 || m.TrustRemoteCode {
			t.Errorf("%s: %.0f parameters as %q (%q), head %d, window %d, trust_remote_code %v; want %.0f as mistral", cfg[:60], got, m.ModelType, m.TextModelType, m.HeadDim, m.SlidingWindow, m.TrustRemoteCode, want)
		}
	}
	// 34 × (2 × 4,096 × 4,096 + 2 × 4,096 × 1,024 + 3 × 4,096 × 14,336 + 2 × 4,096) + 2 × 131,072 × 4,096 + 4,096
	if want != 34*(2*4096*4096+2*4096*1024+3*4096*14336+2*4096)+2*131072*4096+4096 {
		t.Errorf("mistral reference %.0f", want)
	}
}

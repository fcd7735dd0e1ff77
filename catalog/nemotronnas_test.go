package catalog

import (
	"errors"
	"os"
	"strings"
	"testing"
)

const super49B = "testdata/hf/llama-3.3-nemotron-super-49b-v1.verbatim.json"

// TestFFNMultToIntermediateSize: DeciLM's rounding (nemotron_nas.py,
// _ffn_mult_to_intermediate_size) for the six ffn_mult values of
// Llama-3.3-Nemotron-Super-49B-v1 at hidden 8,192, by hand:
// int(2 × m × 8192 / 3), rounded up to a multiple of 256.
func TestFFNMultToIntermediateSize(t *testing.T) {
	for _, c := range []struct {
		mult float64
		want int
	}{
		{5.25, 28672},    // 28,672 = 112 × 256 exactly
		{3.28125, 17920}, // 17,920 = 70 × 256
		{2.625, 14336},   // 14,336 = 56 × 256
		{1.3125, 7168},   // 7,168 = 28 × 256
		{1.0, 5632},      // int(5,461.33) = 5,461 → 22 × 256
		{0.5, 2816},      // 2,730 → 11 × 256
	} {
		if got := FFNMultToIntermediateSize(c.mult, 8192); got != c.want {
			t.Errorf("ffn_mult %g: %d, want %d", c.mult, got, c.want)
		}
	}
}

// TestNemotronSuper49B sizes nvidia/Llama-3_3-Nemotron-Super-49B-v1 from its
// published config.json (aiconfigurator @095f58a5, verbatim) by hand.
// block_configs: 49 layers with attention (n_heads_in_group 8: 64 / 8 = 8
// KV heads of 128), 31 whose attention is a no-op; every layer an FFN:
// 49 of ffn_mult 5.25 (28,672), 6 of 2.625 (14,336), 10 of 1.3125 (7,168),
// 8 of 1.0 (5,632), 6 of 0.5 (2,816), 1 of 3.28125 (17,920).
//
//	embed_tokens, lm_head (untied): 2 × 128,256 × 8,192      =  2,101,346,304
//	attention: 49 × (2 × 8,192² + 2 × 8,192 × 1,024)          =  7,398,752,256
//	MLP: 3 × 8,192 × (49×28,672 + 6×14,336 + 10×7,168
//	                  + 8×5,632 + 6×2,816 + 17,920 = 1,642,496) = 40,365,981,696
//	norms: (49 input + 80 post-attention + 1 final) × 8,192    =      1,064,960
//	total                                                      = 49,867,145,216
//
// The model card's "49B"; llama.cpp counts the same tensors as "model
// params = 49.87 B" (ggml-org/llama.cpp#14752, its GGUF of this model).
// The KV cache: 49 layers × 8 heads × 128 × (K, V) × 2 B = 200,704 B per
// token, 61% of Llama-3.3-70B's 80 layers' 327,680.
func TestNemotronSuper49B(t *testing.T) {
	m, err := LoadHFConfig(super49B)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	if m.NumKVHeads != 8 || m.HeadDim != 128 || m.IntermediateSize != 28672 || !m.TrustRemoteCode {
		t.Errorf("KV heads %d, head_dim %d, widest FFN %d, trust_remote_code %v", m.NumKVHeads, m.HeadDim, m.IntermediateSize, m.TrustRemoteCode)
	}
	attn, widths := 0, map[int]int{}
	for i := 0; i < m.NumLayers; i++ {
		if m.HasAttention(i) {
			attn++
		}
		if !m.HasFFN(i) {
			t.Errorf("layer %d: no FFN", i)
		}
		widths[m.LayerIntermediate(i)]++
	}
	if attn != 49 {
		t.Errorf("%d attention layers, want 49", attn)
	}
	want := map[int]int{28672: 49, 14336: 6, 7168: 10, 5632: 8, 2816: 6, 17920: 1}
	for w, n := range want {
		if widths[w] != n {
			t.Errorf("%d layers of width %d, want %d (%v)", widths[w], w, n, widths)
		}
	}
	p := m.ParamCounts()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"embedding + lm_head", p.Embedding + p.LMHead, 2101346304},
		{"attention", p.Attention, 7398752256},
		{"dense MLP", p.DenseMLP, 40365981696},
		{"norms", p.Norms, 1064960},
		{"total", p.Total, 49867145216},
		{"active", p.Active(m), 49867145216},
	} {
		if c.got != c.want {
			t.Errorf("%s: %.0f, want %.0f", c.name, c.got, c.want)
		}
	}
	// The model's dense MLPs split by stage: layers 0–39 and 40–79 (PP 2)
	// hold their own widths, which add up to the whole.
	a, b := m.DenseMLPInLayers(0, 40), m.DenseMLPInLayers(40, 80)
	if a+b != p.DenseMLP || a == b {
		t.Errorf("stages' MLPs %.0f + %.0f, want %.0f split unevenly", a, b, p.DenseMLP)
	}
	if n := m.NormsInLayers(0, m.NumLayers); n != 129 {
		t.Errorf("%d layer norms, want 129", n)
	}
	// TP: 64 query heads, 8 KV heads split up to TP 8, replicated beyond.
	for tp, ok := range map[int]bool{2: true, 4: true, 8: true, 16: true, 3: false, 32: true, 128: false} {
		if got := m.TPSplitProblem(tp) == ""; got != ok {
			t.Errorf("TP %d accepted %v, want %v (%s)", tp, got, ok, m.TPSplitProblem(tp))
		}
	}
}

// TestNemotronNASUniformModelsUnchanged: LayerIntermediate and
// NormsInLayers give every other model what it had (intermediate_size,
// layers × NormsPerLayer).
func TestNemotronNASUniformModelsUnchanged(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/nemotron-nano-9b-v2.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.LayerIntermediate(3) != m.IntermediateSize || m.NormsInLayers(2, 9) != 7*m.NormsPerLayer() || m.DenseMLPInLayers(0, m.NumLayers) != 0 {
		t.Errorf("a Nemotron-H model read as NAS: %d, %d", m.LayerIntermediate(3), m.NormsInLayers(2, 9))
	}
}

// TestNemotronNASRefusals: block_configs vLLM's nemotron_nas.py does not
// build as they say, or vlaunch does not size, are refused with the layer
// and the reason.
func TestNemotronNASRefusals(t *testing.T) {
	data, err := os.ReadFile(super49B)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	first := `"n_heads_in_group": 8,` // layer 0's
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"linear attention", `"replace_with_linear": false`, `"replace_with_linear": true`, "replace_with_linear"},
		{"varying KV heads", first, `"n_heads_in_group": 4,`, "KV heads where the first attention layer has 16"},
		{"no block_configs", `"block_configs"`, `"block_configs_x"`, "block_configs absent"},
		{"heads not divided", first, `"n_heads_in_group": 7,`, "layer 0 attention without a positive n_heads_in_group dividing num_attention_heads 64"},
		{"mlp bias", `"mlp_bias": false`, `"mlp_bias": true`, "mlp_bias true"},
		{"layers", `"num_hidden_layers": 80`, `"num_hidden_layers": 81`, "80 block_configs for num_hidden_layers 81"},
	} {
		if !strings.Contains(src, c.from) {
			t.Fatalf("%s: %q not in the fixture", c.name, c.from)
		}
		edited := strings.Replace(src, c.from, c.to, 1)
		m, err := ParseHFConfig([]byte(edited))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = m.Modelled()
		var ue *UnmodelledError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "(nemotron-nas)") {
			t.Errorf("%s: %v, want a refusal naming %q", c.name, err, c.want)
		}
	}
}

// TestNemotronNASQuantShares: a ModelOpt FP8 Super-49B (lm_head excluded,
// the layout of nvidia/Llama-3_3-Nemotron-Super-49B-v1_5-FP8, written here)
// quantizes every attention and MLP projection it has. The share of each
// attention module is over the 49 layers that hold one: over all 80 it read
// 49 / 80 and sized the attention 61% FP8, 39% BF16 (9.56 GiB at TP 1
// instead of 6.89).
func TestNemotronNASQuantShares(t *testing.T) {
	data, err := os.ReadFile(super49B)
	if err != nil {
		t.Fatal(err)
	}
	q := `"quantization_config": {"quant_method": "modelopt", "quant_algo": "FP8", "exclude_modules": ["lm_head"]}, "architectures"`
	m, err := ParseHFConfig([]byte(strings.Replace(string(data), `"architectures"`, q, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	s := m.Quant.Shares
	if s == nil || s.Attention != 1 || s.DenseMLP != 1 {
		t.Fatalf("shares %+v, want attention and MLP wholly FP8", s)
	}
	if got := m.AttentionQuantShare(64, 8); got != 1 {
		t.Errorf("attention quantized share %v, want 1", got)
	}
}

// TestNemotronUltra253B sizes nvidia/Llama-3_1-Nemotron-Ultra-253B-v1 from
// its config.json as NVIDIA's Megatron-Bridge copies it ("Config copy from
// https://huggingface.co/nvidia/Llama-3_1-Nemotron-Ultra-253B-v1/blob/main/
// config.json", src/megatron/bridge/models/llama_nemotron/
// llama_nemotron_config.py at y-okochi/Megatron-Bridge@00341cdb, whose
// Super-49B copy in the same file is identical to aiconfigurator's), by
// hand. Hidden 16,384, 128 heads of 128; 162 block_configs: 64 layers with
// attention (n_heads_in_group 16: 8 KV heads) and an FFN, 17 with an FFN
// only, 81 with neither (both no-ops: vLLM's layer passes its input on).
// The 81 FFNs' widths (ffn_mult → _ffn_mult_to_intermediate_size) sum to
// 4,327,168, among them the four fused FFNs of ffn_mult 27.5625 to 39
// (301,056 to 425,984 wide).
//
//	embed_tokens, lm_head: 2 × 128,256 × 16,384                   =   4,202,692,608
//	attention: 64 × (2 × 16,384² + 2 × 16,384 × 1,024)             =  36,507,222,016
//	MLP: 3 × 16,384 × 4,327,168                                    = 212,688,961,536
//	norms: (64 + 81 + 1) × 16,384                                  =       2,392,064
//	total                                                          = 253,401,268,224
//
// The card's "253B"; llama.cpp's GGUF of the model prints "model params =
// 253.401 B" and "repeating layers … 249.199 B parameters" (the total less
// embedding and output, ikawrakow/ik_llama.cpp#377), and its per-layer
// table (ggml-org/llama.cpp#12843, ymcki, 2025-04-16) lists layers 1–3's
// feed-forward as 264,257,536, 528,498,688 and 792,739,840 parameters:
// 3 × 16,384 × (5,376, 10,752, 16,128) and the 16,384 norm, the widths of
// ffn_mult 0.4875, 0.975 and 1.4625 here. KV: 64 × 8 × 128 × (K, V) × 2 B
// = 262,144 B per token.
func TestNemotronUltra253B(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/llama-3.1-nemotron-ultra-253b-v1.megatron-bridge.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	var attn, ffn, empty, widths int
	for i := 0; i < m.NumLayers; i++ {
		a, f := m.HasAttention(i), m.HasFFN(i)
		attn, ffn, empty = attn+boolInt(a), ffn+boolInt(f), empty+boolInt(!a && !f)
		widths += m.LayerIntermediate(i)
	}
	for i, w := range []int{5376, 10752, 16128} {
		if got := m.LayerIntermediate(i); got != w {
			t.Errorf("layer %d FFN %d wide, llama.cpp's table %d", i, got, w)
		}
	}
	if attn != 64 || ffn != 81 || empty != 81 || widths != 4327168 || m.NumKVHeads != 8 || m.IntermediateSize != 425984 {
		t.Errorf("%d attention, %d FFN, %d empty layers, widths %d, %d KV heads, widest %d", attn, ffn, empty, widths, m.NumKVHeads, m.IntermediateSize)
	}
	p := m.ParamCounts()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"embedding + lm_head", p.Embedding + p.LMHead, 4202692608},
		{"attention", p.Attention, 36507222016},
		{"dense MLP", p.DenseMLP, 212688961536},
		{"norms", p.Norms, 2392064},
		{"total", p.Total, 253401268224},
	} {
		if c.got != c.want {
			t.Errorf("%s: %.0f, want %.0f", c.name, c.got, c.want)
		}
	}
}

package catalog

import (
	"math"
	"strings"
	"testing"
)

// dsv4Hand counts a DeepSeek-V4 config by hand, layer by layer, as vLLM's
// deepseek_v4.py builds it (independently of the package's helpers): the
// attention (wq_a + wkv, q_norm, wq_b, kv_norm, wo_a, wo_b, sinks), the
// compressor of compressed layers, the C4A layers' indexer with its own
// compressor, two norms, the hyper-connection mixers, the gate with its
// bias or hash table, the shared and routed experts; embeddings, LM head,
// final norm and hc_head.
func dsv4Hand(h, heads, hd, ql, ol, groups, layers, experts, inter, topk, vocab, hc, ih, id, hashLayers int, ratios []int) (total, active float64) {
	H, D, QL := float64(h), float64(hd), float64(ql)
	for i := 0; i < layers; i++ {
		r := max(1, ratios[i])
		a := H*(QL+D) + QL + QL*float64(heads)*D + D + float64(heads)*D*float64(ol) + float64(groups*ol)*H + float64(heads)
		if r > 1 {
			coff := 1.0
			if r == 4 {
				coff = 2
			}
			a += H*2*coff*D + float64(r)*coff*D + D
		}
		if r == 4 {
			a += QL*float64(ih*id) + H*float64(ih) + 2*float64(id) + H*2*2*float64(id) + 4*2*float64(id) + float64(id)
		}
		mix := float64((2 + hc) * hc)
		hcp := 2 * (mix*float64(hc)*H + mix + 3)
		gate := H * float64(experts)
		if i < hashLayers {
			gate += float64(vocab * topk)
		} else {
			gate += float64(experts)
		}
		shared := 3 * H * float64(inter)
		total += a + 2*H + hcp + gate + shared + float64(experts)*3*H*float64(inter)
		active += a + 2*H + hcp + gate + shared + float64(topk)*3*H*float64(inter)
	}
	top := 2*float64(vocab)*H + H + float64(hc*hc)*H + float64(hc) + 1
	return total + top, active + top
}

// TestDeepseekV4 reads DeepSeek-V4-Flash and -Pro (testdata/hf/*.verbatim.
// json, aiconfigurator's copies of the published config.json) and checks
// the counts against a hand count and the model cards' 284B total / 13B
// active (Flash) and 1.6T / 49B (Pro), as the Hugging Face model card
// states them (quoted by deepseekv4flash.com/models and the technical
// report's summary): within 1% where the card gives three figures, within
// the card's rounding otherwise.
func TestDeepseekV4(t *testing.T) {
	for _, tt := range []struct {
		file                          string
		h, heads, ql, groups, layers  int
		experts, inter                int
		card, cardActive, total, tolA float64
	}{
		{"deepseek-v4-flash.verbatim.json", 4096, 64, 1024, 8, 43, 256, 2048, 284e9, 13e9, 0.01, 0.5e9},
		{"deepseek-v4-pro.verbatim.json", 7168, 128, 1536, 16, 61, 384, 3072, 1.6e12, 49e9, 0.05e12 / 1.6e12, 0.5e9},
	} {
		m, err := LoadHFConfig("testdata/hf/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if m.DSV4 == nil || m.IsMLA() || m.IsSparseAttention() || m.SlidingWindow != 0 || m.TrustRemoteCode {
			t.Fatalf("%s: read as %+v", tt.file, m)
		}
		total, active := dsv4Hand(tt.h, tt.heads, 512, tt.ql, 1024, tt.groups, tt.layers, tt.experts, tt.inter, 6, 129280, 4, 64, 128, 3, m.DSV4.CompressRatios)
		pc := m.ParamCounts()
		if math.Abs(pc.Total-total) > 1 || math.Abs(pc.Active(m)-active) > 1 {
			t.Errorf("%s: total %.10g active %.10g, hand %.10g / %.10g", tt.file, pc.Total, pc.Active(m), total, active)
		}
		// Active without the input embedding (a lookup), as cards count it.
		act := pc.Active(m) - pc.Embedding
		t.Logf("%s: %.2fB total, %.2fB active (card %.0fB / %.0fB)", tt.file, pc.Total/1e9, act/1e9, tt.card/1e9, tt.cardActive/1e9)
		if math.Abs(pc.Total/tt.card-1) > tt.total || math.Abs(act-tt.cardActive) > tt.tolA {
			t.Errorf("%s: %.4gB total, %.4gB active off the card", tt.file, pc.Total/1e9, act/1e9)
		}
		// Per TP rank: the split parts shrink with the heads, the
		// replicated latent projections, compressors and indexers do not.
		full, half := m.AttentionParams(float64(m.NumHeads), 1), m.AttentionParams(float64(m.NumHeads)/2, 1)
		if !(half < full && half > full/2) {
			t.Errorf("%s: attention per rank %.4g of %.4g at TP 2", tt.file, half, full)
		}
	}
}

// TestDeepseekV4Caches: DeepSeek-V4-Flash's caches as vLLM pages them, by
// hand: 584-byte fp8_ds_mla entries, pages padded to 576 bytes; 43 layers'
// 128-token windows in 64-token pages (64 × 584 = 37,376 -> 37,440), the 21
// C4A layers' keys (256 / 4 = 64 entries: 37,440), indexer keys (64 × 132 =
// 8,448 -> 8,640), compressor states (4 tokens × 2 × 2 × 512 × 4 B = 32,768
// -> 32,832; indexer 4 × 2 × 2 × 128 × 4 = 8,192 -> 8,640), the 20 C128A
// layers' keys (2 × 584 = 1,168 -> 1,728) and states (8 × 2 × 512 × 4 =
// 32,768 -> 32,832); layers 0 and 1 and 42 are window-only.
func TestDeepseekV4Caches(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/deepseek-v4-flash.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	got := m.DeepseekV4Caches(0, m.NumLayers)
	want := []PagedCache{
		{Name: "sliding-window keys", Layers: 43, BlockTokens: 64, PageBytes: 37440, Window: 128},
		{Name: "C4A compressed keys", Layers: 21, BlockTokens: 256, PageBytes: 37440, Window: 0},
		{Name: "C4A compressor state", Layers: 21, BlockTokens: 4, PageBytes: 32832, Window: 8},
		{Name: "C4A indexer keys", Layers: 21, BlockTokens: 256, PageBytes: 8640, Window: 0},
		{Name: "C4A indexer compressor state", Layers: 21, BlockTokens: 4, PageBytes: 8640, Window: 8},
		{Name: "C128A compressed keys", Layers: 20, BlockTokens: 256, PageBytes: 1728, Window: 0},
		{Name: "C128A compressor state", Layers: 20, BlockTokens: 8, PageBytes: 32832, Window: 128},
	}
	if len(got) != len(want) {
		t.Fatalf("caches %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("cache %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// A pipeline stage holds its own layers' caches only.
	if c := m.DeepseekV4Caches(0, 2); len(c) != 1 || c[0].Layers != 2 {
		t.Errorf("layers 0-1: %+v", c)
	}
}

// TestDeepseekV4Refusals: a config that vLLM's DeepSeek-V4 attention
// cannot build is refused, saying what.
func TestDeepseekV4Refusals(t *testing.T) {
	base := `{"model_type": "deepseek_v4", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
		"num_key_value_heads": 1, "head_dim": 512, "qk_rope_head_dim": 64, "q_lora_rank": 32, "o_groups": 2, "o_lora_rank": 16, "hc_mult": 4,
		"n_routed_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 32, "sliding_window": 128,
		"index_topk": 8, "index_n_heads": 2, "index_head_dim": 128, `
	for _, tt := range []struct{ tail, want string }{
		{`"compress_ratios": [0, 4]}`, ""},
		{`"compress_ratios": [4]}`, "compress_ratios has 1 entries for 2 layers"},
		{`"compress_ratios": [0, 8]}`, "compress_ratios entry 8"},
		{`"compress_ratios": [0, 4], "expert_dtype": "int4"}`, `expert_dtype "int4"`},
		{`"compress_ratios": [0, 4], "head_dim": 256}`, "head_dim 512"},
		{`"compress_ratios": [0, 4], "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128], "scale_fmt": "ue8m0"}}`, ""},
		// nvidia/DeepSeek-V4-Flash-NVFP4 keeps quant_method fp8 beside
		// ModelOpt's config_groups: not DeepSeek's release, refused.
		{`"compress_ratios": [0, 4], "quantization_config": {"quant_method": "fp8", "config_groups": {}, "quant_algo": "MIXED_PRECISION"}}`, `quantization_config "fp8 with config_groups"`},
	} {
		m, err := ParseHFConfig([]byte(base + tt.tail))
		if err != nil {
			t.Fatalf("%s: %v", tt.tail, err)
		}
		err = m.Modelled()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.tail, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %q", tt.tail, err, tt.want)
		}
	}
}

// TestNewFamiliesTPSplit: DeepSeek-V4's o_groups must divide by TP
// (Flash's 8: TP 16 is refused); MiMo-V2-Flash's sliding layers' KV heads
// are checked beside the full layers' (a made-up 6 fails TP 4); Gemma 4
// 26B at TP 16 splits its 16 query heads and replicates its 8 and 2 KV
// heads, both dividing 16.
func TestNewFamiliesTPSplit(t *testing.T) {
	flash, _ := LoadHFConfig("testdata/hf/deepseek-v4-flash.verbatim.json")
	if p := flash.TPSplitProblem(8); p != "" {
		t.Errorf("Flash TP 8: %s", p)
	}
	if p := flash.TPSplitProblem(16); !strings.Contains(p, "o_groups (8)") {
		t.Errorf("Flash TP 16: %q", p)
	}
	mimo, _ := LoadHFConfig("testdata/hf/mimo-v2-flash.verbatim.json")
	if p := mimo.TPSplitProblem(16); p != "" {
		t.Errorf("MiMo TP 16: %s", p)
	}
	// A made-up MiMo whose sliding layers have 6 KV heads: TP 4 divides the
	// full layers' 4 but not 6.
	odd, _ := ParseHFConfig([]byte(`{"model_type": "mimo_v2_flash", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 24, "num_key_value_heads": 4,
		"vocab_size": 100, "head_dim": 16, "v_head_dim": 8, "sliding_window_size": 8, "hybrid_layer_pattern": [0, 1], "swa_num_key_value_heads": 6}`))
	if p := odd.TPSplitProblem(4); !strings.Contains(p, "6 KV heads") {
		t.Errorf("sliding layers' 6 KV heads at TP 4: %q", p)
	}
	g4, _ := LoadHFConfig("testdata/hf/gemma-4-26b-a4b.verbatim.json")
	if p := g4.TPSplitProblem(16); p != "" {
		t.Errorf("Gemma 4 TP 16: %s", p)
	}
}

// TestRoutedExpertFormat (newuser40 finding 7): DeepSeek-V4's checkpoints
// are FP8 with MXFP4 routed experts (expert_dtype fp4), and the catalog's
// one phrase for them says so; a uniform checkpoint says its dtype alone.
func TestRoutedExpertFormat(t *testing.T) {
	for id, want := range map[string]string{
		"deepseek-v4-flash": "fp8, routed experts mxfp4",
		"deepseek-v4-pro":   "fp8, routed experts mxfp4",
		"deepseek-v3":       "fp8",
		"gpt-oss-120b":      "mxfp4",
		"llama-3.3-70b":     "bf16",
	} {
		m, err := LookupModel(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.WeightsText(); got != want {
			t.Errorf("%s: WeightsText() = %q, want %q", id, got, want)
		}
	}
}

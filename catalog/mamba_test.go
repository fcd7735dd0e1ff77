package catalog

import (
	"math"
	"strings"
	"testing"
)

// TestNemotronH reads Nemotron-H configs (verbatim, aiconfigurator
// @095f58a5; testdata/hf/README.md) layer by layer from
// hybrid_override_pattern, as vLLM's nemotron_h.py builds them, and counts
// Nemotron-3 Nano by hand: per Mamba-2 layer in_proj 2688 × (2·4096 +
// 2·8·128 + 64), conv1d (4096 + 2048) × 4 with bias, dt_bias/A/D 3 × 64,
// norm 4096, out_proj 4096 × 2688; per attention layer q/o 2 × 2688 × 4096,
// k/v 2 × 2688 × 256; per MoE layer 128 experts and a shared expert of
// up + down (relu², no gate), a float32 router with its bias; one norm per
// layer. Cards: Nemotron-3 Nano 31.6B total, 3.6B active with embeddings;
// Nemotron-H-56B 56B.
func TestNemotronH(t *testing.T) {
	nano, err := LoadHFConfig("testdata/hf/nemotron-3-nano-30b-a3b.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := nano.Modelled(); err != nil {
		t.Fatal(err)
	}
	const h = 2688.0
	p := nano.HybridPattern
	nM, nA, nE := float64(strings.Count(p, "M")), float64(strings.Count(p, "*")), float64(strings.Count(p, "E"))
	mamba := h*(2*4096+2*8*128+64) + (4096+2048)*4 + (4096 + 2048) + 3*64 + 4096 + 4096*h
	attn := 2*h*32*128 + 2*h*2*128
	moe := 128*2*h*1856 + 2*h*3712 + h*128 + 128
	want := 2*131072*h + nM*mamba + nA*attn + nE*moe + 52*h + h
	pc := nano.ParamCounts()
	if nM != 23 || nA != 6 || nE != 23 || math.Abs(pc.Total-want) > 1 {
		t.Errorf("M %v * %v E %v; total %.8g, want %.8g", nM, nA, nE, pc.Total, want)
	}
	active := pc.Active(nano)
	if math.Abs(pc.Total/31.6e9-1) > 0.01 || math.Abs(active/3.6e9-1) > 0.02 {
		t.Errorf("total %.2fB (card 31.6B), active %.2fB (card 3.6B)", pc.Total/1e9, active/1e9)
	}
	if !nano.RouterFP32 || nano.Mamba.SSMDType != "fp32" || nano.HasAttention(0) || !nano.HasAttention(5) || nano.HasFFN(0) {
		t.Errorf("read as %+v", nano)
	}
	// State per sequence and layer at TP1 (mamba2_state_shape): conv
	// (3, 4096 + 2·8·128), temporal (64, 64, 128).
	if c, tmp := nano.MambaStateElems(1); c != 3*(4096+2048) || tmp != 64*64*128 {
		t.Errorf("state %d + %d", c, tmp)
	}

	big, err := LoadHFConfig("testdata/hf/nemotron-h-56b-base-8k.verbatim.json")
	if err != nil || big.Modelled() != nil {
		t.Fatalf("%v %v", err, big.Modelled())
	}
	if got := big.ParamCounts().Total; math.Abs(got/56e9-1) > 0.01 {
		t.Errorf("Nemotron-H-56B %.2fB", got/1e9)
	}
	t.Logf("Nemotron-3 Nano %.3fB total / %.3fB active (card 31.6B / 3.6B); Nemotron-H-56B %.3fB (card 56B)", pc.Total/1e9, active/1e9, big.ParamCounts().Total/1e9)
}

// TestNemotronHRefusals: a latent MoE wider than the hidden state and a
// pattern that does not spell every layer stay refused, naming what is
// missing (latent MoE itself is modelled: TestNemotron3Super).
func TestNemotronHRefusals(t *testing.T) {
	base := readFile(t, "testdata/hf/nemotron-3-nano-30b-a3b.verbatim.json")
	for name, edit := range map[string]func(map[string]any){
		"wide latent":   func(c map[string]any) { c["moe_latent_size"] = 1 << 20 },
		"short pattern": func(c map[string]any) { c["hybrid_override_pattern"] = "MEM" },
		"odd layer":     func(c map[string]any) { c["hybrid_override_pattern"] = strings.Repeat("X", 52) },
		"no heads":      func(c map[string]any) { c["mamba_num_heads"] = 0 },
	} {
		m, err := ParseHFConfig(editJSON(t, base, edit))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := m.Modelled(); err == nil || !strings.Contains(err.Error(), "nemotron_h") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestNemotron3Super reads Nemotron-3 Super (its FP8 checkpoint's config.json
// and hf_quant_config.json, testdata/ckpt) and Ultra (testdata/hf, which
// lists layers_block_type instead of hybrid_override_pattern) as vLLM's
// nemotron_h.py builds their latent MoE: the routed experts work at
// moe_latent_size (512 experts of latent → intermediate → latent, relu²),
// fc1_latent_proj and fc2_latent_proj (hidden × latent each, replicated)
// take the hidden state there and back, the shared expert and the gate stay
// at hidden size. Counted by hand per E layer, then against the cards:
// 120B total / 12B active and 550B / 55B (NVIDIA's model cards as vLLM's
// recipes quote them, models/nvidia/NVIDIA-Nemotron-3-{Super-120B-A12B,
// Ultra-550B-A55B}-BF16.yaml): within 1% of the total, and the active
// count without the input embedding within the card's rounding.
func TestNemotron3Super(t *testing.T) {
	for _, tt := range []struct {
		file                     string
		h, latent, inter, shared int
		moeLayers                int
		card, cardActive         float64
	}{
		{"testdata/ckpt/nvidia--NVIDIA-Nemotron-3-Super-120B-A12B-FP8/config.json", 4096, 1024, 2688, 5376, 40, 120e9, 12e9},
		{"testdata/hf/nemotron-3-ultra-550b-a55b.verbatim.json", 8192, 2048, 5120, 10240, 48, 550e9, 55e9},
	} {
		m, err := LoadHFConfig(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if m.MoELatentSize != tt.latent || m.ExpertHidden() != tt.latent || m.MoELayerCount() != tt.moeLayers {
			t.Fatalf("%s: latent %d, %d MoE layers", tt.file, m.MoELatentSize, m.MoELayerCount())
		}
		pc := m.ParamCounts()
		h, l := float64(tt.h), float64(tt.latent)
		// One E layer: 512 experts of 2 × latent × inter, the shared expert
		// 2 × hidden × shared, the fp32 gate and bias, the projections.
		perLayer := 512*2*l*float64(tt.inter) + 2*h*float64(tt.shared) + h*512 + 512 + 2*h*l
		got := pc.ExpertPerLayerEach*512 + pc.SharedPerLayer + pc.RouterPerLayer + pc.LatentPerLayer
		if math.Abs(got-perLayer) > 1 {
			t.Errorf("%s: MoE layer %.10g, hand %.10g", tt.file, got, perLayer)
		}
		active := pc.Active(m) - pc.Embedding
		t.Logf("%s: %.2fB total, %.2fB active without the input embedding (card %.0fB / %.0fB)", tt.file, pc.Total/1e9, active/1e9, tt.card/1e9, tt.cardActive/1e9)
		if math.Abs(pc.Total/tt.card-1) > 0.01 || math.Abs(active-tt.cardActive) > 0.5e9 {
			t.Errorf("%s: off the card", tt.file)
		}
	}
}

// TestNemotronHQuantShares matches a ModelOpt checkpoint's exclude_modules
// against Nemotron-H's own module paths (backbone.layers.N.mixer.*), with
// Mamba-2's in_proj/out_proj in the attention component as the memory model
// places them. Nemotron-3 Nano by hand: an attention layer's q/k/v/o are
// 2688·4096 + 2·2688·256 + 4096·2688 = 23,396,352 parameters, a Mamba-2
// layer's in_proj + out_proj 2688·(2·4096 + 2·8·128 + 64) + 4096·2688 =
// 38,707,200; six attention and 23 Mamba layers make 1,030,643,712.
// NVIDIA's NVFP4 checkpoint (testdata/ckpt, verbatim) keeps the six
// attention layers and the Mamba layers 4, 11, 18, 25, 32, 41 in BF16:
// 17 × 38,707,200 = 658,022,400 quantized, a share of 0.63846. Before
// Nemotron-H's names were matched every exclusion was missed (share 1):
// 0.50 GiB too few weights against the 18.03 GiB a vLLM 0.19.1 start-up of
// a checkpoint of the same recipe logged (estimate/memory).
func TestNemotronHQuantShares(t *testing.T) {
	const attn, mamba = 23396352.0, 38707200.0
	const part = 6*attn + 23*mamba
	cfg := readFile(t, "testdata/ckpt/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4/config.json")
	quant := func(exclude string) []byte {
		return []byte(`{"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "NVFP4", "group_size": 16, "exclude_modules": [` + exclude + `]}}`)
	}
	tests := []struct {
		name                  string
		quant                 []byte // nil: the verbatim hf_quant_config.json next to config.json
		attention, rout, shar float64
	}{
		{"NVIDIA NVFP4 (verbatim)", nil, 17 * mamba / part, 1, 1},
		{"lm_head only", quant(`"lm_head"`), 1, 1, 1},
		{"every in_proj (glob)", quant(`"backbone.layers.*.mixer.in_proj"`), (6*attn + 23*4096*2688) / part, 1, 1},
		{"one attention layer", quant(`"backbone.layers.5.mixer.q_proj", "backbone.layers.5.mixer.k_proj", "backbone.layers.5.mixer.v_proj", "backbone.layers.5.mixer.o_proj"`), (5*attn + 23*mamba) / part, 1, 1},
		{"one layer's experts and shared expert", quant(`"backbone.layers.1.mixer.experts", "backbone.layers.1.mixer.shared_experts"`), 1, 22.0 / 23, 22.0 / 23},
		{"router and conv1d (not quantized by vLLM anyway)", quant(`"backbone.layers.1.mixer.gate", "backbone.layers.0.mixer.conv1d"`), 1, 1, 1},
		{"the HF-style name of another family matches nothing", quant(`"model.layers.5.self_attn.q_proj"`), 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m *Model
			var err error
			if tt.quant == nil {
				m, err = LoadHFConfig("testdata/ckpt/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4/config.json")
			} else {
				m, err = ParseHFConfigWithQuant([]byte(cfg), tt.quant)
			}
			if err != nil {
				t.Fatal(err)
			}
			s := m.Quant.Shares
			if m.Quant.Format != FormatNVFP4 || s == nil {
				t.Fatalf("quantization %+v", m.Quant)
			}
			if math.Abs(s.Attention-tt.attention) > 1e-12 || math.Abs(s.Routed-tt.rout) > 1e-12 || math.Abs(s.Shared-tt.shar) > 1e-12 {
				t.Errorf("shares attention %.6f routed %.6f shared %.6f, want %.6f %.6f %.6f", s.Attention, s.Routed, s.Shared, tt.attention, tt.rout, tt.shar)
			}
			// One share for the whole component: per-projection layer
			// shares would count attention over all 52 layers.
			if len(s.AttnModules) != 0 || m.AttentionQuantShare(32, 2) != s.Attention {
				t.Errorf("attention modules %v, AttentionQuantShare %v", s.AttnModules, m.AttentionQuantShare(32, 2))
			}
		})
	}
}

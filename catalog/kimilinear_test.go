package catalog

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestKimiK3: moonshotai/Kimi-K3's published config.json (aiconfigurator's
// verbatim copy) read as vLLM's vllm/models/kimi_k3/nvidia/model.py builds
// it, counted by hand (h = 7,168; catalog/kimilinear.go cites the modules):
//
//	layers: kda_layers are 1-based: 69 KDA layers (1-based 1–3, 5–7, …,
//	  89–91), 24 MLA layers (1-based 4, 8, …, 92, 93); layer 0 dense, 92 MoE
//	KDA layer (96 heads of 128, P = 12,288, kernel 4):
//	  in_proj h × (4P + 128 + 96) + f_b 128 × P + dt_bias P + conv1d 3P × 4
//	  + A_log 96 + o_norm 128 + o_proj P × h                = 443,740,384
//	MLA layer (q-LoRA 1,536, kv-LoRA 512 + rope 64, nope 128, v 128, 96 heads):
//	  q_a h × 1,536 + norm 1,536 + q_b 1,536 × 96 × 192
//	  + kv_a h × 576 + norm 512 + kv_b 512 × 96 × 256 + o_proj 96 × 128 × h
//	  + g_proj h × 96 × 128 (mla_use_output_gate)             = 232,196,096
//	dense layer 0: 3 × h × 33,792                             =   726,663,168
//	routed: 92 layers × 896 experts × 3 × 3,584 × 3,072       = 2,722,740,830,208
//	shared: 92 × 3 × h × (3,072 × 2)                          = 12,155,092,992
//	router: 92 × (h × 896 + 896 correction bias)              =   590,955,008
//	latent projections: 92 × 2 × h × 3,584                    = 4,726,980,608
//	norms: 93 × 2h + h, attention residuals 93 × 4h + 2h,
//	  the latent RMSNorm 92 × 3,584                           =     4,350,976
//	embedding and lm_head: 2 × 163,840 × h                    = 2,348,810,240
//	total                                                     = 2,779,484,476,000
//
// and active per token: the total less the routed experts plus 92 × 16 of
// them = 105,364,017,760. Moonshot's card was not found; a reported
// "exceeds 2.5 trillion parameters" (chaobro.com, 2026) agrees, a
// third-party "~500GB with MXFP4" download note does not (the routed
// experts alone are 2.72 T parameters, 1.45 TB at 4.25 bits each).
//
// The state of one KDA layer for one sequence at TP 8: conv 3 × 12,288 / 8
// × 3 = 13,824 values, recurrent 12 × 128 × 128 = 196,608 float32 values.
func TestKimiK3(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/kimi-k3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatalf("Kimi-K3 refused: %v", err)
	}
	if m.ModelType != "kimi_linear" || m.Wrapper != "kimi_k3" || m.KimiLinear == nil {
		t.Fatalf("read as %s in %q, KimiLinear %v", m.ModelType, m.Wrapper, m.KimiLinear)
	}
	// The routed experts are compressed-tensors mxfp4-pack-quantized (group
	// 32, strategy group, scale_dtype uint8), the rest ignored: MXFP4, not
	// NVFP4, at 4.25 bits, only the routed experts quantized.
	if q := m.Quant; m.CheckpointDType() != FormatMXFP4 || q.Format != FormatMXFP4 || q.GroupSize != 32 ||
		q.BytesPerParam(m.HiddenSize) != 0.53125 || q.Shares == nil || q.Shares.Routed != 1 || q.Shares.Attention != 0 || q.Shares.Shared != 0 {
		t.Errorf("quantization read as %s (%+v), bytes %.5f per weight; want mxfp4 group 32, 0.53125, routed experts only",
			m.CheckpointDType(), q, q.BytesPerParam(m.HiddenSize))
	}
	attn := 0
	for i := 0; i < m.NumLayers; i++ {
		attn += boolInt(m.HasAttention(i))
	}
	if m.LinearLayerCount() != 69 || attn != 24 || m.IsLinearLayer(3) || !m.IsLinearLayer(0) || m.IsLinearLayer(92) || m.MoELayerCount() != 92 {
		t.Errorf("KDA layers %d, MLA layers %d, MoE layers %d; layer 0 KDA %v, 3 %v, 92 %v",
			m.LinearLayerCount(), attn, m.MoELayerCount(), m.IsLinearLayer(0), m.IsLinearLayer(3), m.IsLinearLayer(92))
	}
	if m.ExpertsPerToken != 16 || m.NumSharedExperts != 2 || m.MoELatentSize != 3584 || m.ExpertHidden() != 3584 {
		t.Errorf("top-k %d, shared %d, latent %d", m.ExpertsPerToken, m.NumSharedExperts, m.MoELatentSize)
	}
	const h = 7168.0
	const P = 96 * 128.0
	kda := h*(4*P+128+96) + 128*P + P + 3*P*4 + 96 + 128 + P*h
	mla := (h*1536 + 1536 + 1536*96*192) + (h*576 + 512 + 512*96*256) + 96*128*h + h*96*128
	if kda != 443740384 || mla != 232196096 {
		t.Fatalf("hand count drifted: KDA %.0f, MLA %.0f", kda, mla)
	}
	pc := m.ParamCounts()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"KDA layer", pc.LinearAttentionPerLayer, kda},
		{"MLA layer", pc.AttentionPerLayer, mla},
		{"attention", pc.Attention, 69*kda + 24*mla},
		{"dense MLP", pc.DenseMLP, 3 * h * 33792},
		{"routed experts", pc.RoutedExperts, 92 * 896 * 3 * 3584 * 3072},
		{"shared experts", pc.SharedExperts, 92 * 3 * h * 6144},
		{"router", pc.Router, 92 * (h*896 + 896)},
		{"latent projections", pc.LatentProj, 92 * 2 * h * 3584},
		{"norms", pc.Norms, 93*2*h + h + 93*4*h + 2*h + 92*3584},
		{"embedding + lm_head", pc.Embedding + pc.LMHead, 2 * 163840 * h},
		{"total", pc.Total, 2779484476000},
		{"active", pc.Active(m), 105364017760},
	} {
		if c.got != c.want {
			t.Errorf("%s: %.0f, want %.0f", c.name, c.got, c.want)
		}
	}
	// One of 8 TP ranks: f_a's 128 rows and o_norm whole, the rest split.
	if got, want := m.LinearAttentionParams(8), (kda-h*128-128)/8+h*128+128; got != want {
		t.Errorf("KDA layer per rank at TP 8 %.0f, want %.0f", got, want)
	}
	if conv, rec := m.GDNStateElems(8); conv != 13824 || rec != 196608 || m.GDN.SSMDType != "fp32" {
		t.Errorf("state at TP 8: conv %d, recurrent %d (%s); want 13,824 and 196,608 float32", conv, rec, m.GDN.SSMDType)
	}
	if m.LinearAttentionName() != "Kimi Delta Attention (KDA)" {
		t.Errorf("named %q", m.LinearAttentionName())
	}
}

// TestKimiLinearRefusals: what vLLM's Kimi-K3 model does not build, or a
// config that does not say enough, is refused with the reason — among them
// Kimi-Linear-48B's KDA (low-rank gate), another layer.
func TestKimiLinearRefusals(t *testing.T) {
	raw, err := os.ReadFile("testdata/hf/kimi-k3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, want string
		edit       func(text map[string]any)
	}{
		{"low-rank gate", "use_full_rank_gate false", func(x map[string]any) { x["linear_attn_config"].(map[string]any)["use_full_rank_gate"] = false }},
		{"RoPE MLA", "mla_use_nope false", func(x map[string]any) { x["mla_use_nope"] = false }},
		{"layer past the model", "kda_layers names layer 94 of 93", func(x map[string]any) {
			x["linear_attn_config"].(map[string]any)["kda_layers"] = []int{1, 94}
		}},
		{"layer 0 (1-based list)", "kda_layers names layer 0 of 93", func(x map[string]any) { x["linear_attn_config"].(map[string]any)["kda_layers"] = []int{0} }},
		{"no KDA layers", "kda_layers names no layer", func(x map[string]any) { x["linear_attn_config"].(map[string]any)["kda_layers"] = []int{} }},
		{"no heads", "num_heads, head_dim and short_conv_kernel_size must be positive", func(x map[string]any) { delete(x["linear_attn_config"].(map[string]any), "num_heads") }},
		{"no linear_attn_config", "linear_attn_config missing", func(x map[string]any) { delete(x, "linear_attn_config") }},
		{"gelu", `hidden_act "gelu"`, func(x map[string]any) { x["hidden_act"] = "gelu" }},
		{"no MLA", "kv_lora_rank missing", func(x map[string]any) { delete(x, "kv_lora_rank") }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var top map[string]any
			if err := json.Unmarshal(raw, &top); err != nil {
				t.Fatal(err)
			}
			tt.edit(top["text_config"].(map[string]any))
			data, _ := json.Marshal(top)
			m, err := ParseHFConfig(data)
			if err != nil {
				t.Fatal(err)
			}
			err = m.Modelled()
			var ue *UnmodelledError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("%v, want a refusal naming %q", err, tt.want)
			}
			_ = m.ParamCounts() // a refused config still counts without panicking
		})
	}
}

package catalog

import (
	"encoding/json"
	"errors"
	"math"
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

// TestKimiLinearRefusals: what vLLM's Kimi models do not build, or a
// config that does not say enough, is refused with the reason (Kimi-Linear's
// low-rank-gate KDA is sized now: TestKimiLinear48B).
func TestKimiLinearRefusals(t *testing.T) {
	raw, err := os.ReadFile("testdata/hf/kimi-k3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, want string
		edit       func(text map[string]any)
	}{
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

// TestKimiLinear48B: moonshotai/Kimi-Linear-48B-A3B-Instruct's published
// config.json (a public model report's verbatim copy, testdata/hf/README.md)
// read as vLLM's kimi_linear.py (read at vllm-project/vllm 01d99586) and
// kda.py (at 01a7e5d9) build it, counted by hand (h = 2,304):
//
//	layers: kda_layers 1-based: 20 KDA layers, 7 MLA (1-based 4, 8, …, 24,
//	  27); layer 0 dense (first_k_dense_replace 1), 26 MoE layers
//	KDA layer (KimiDeltaAttention, low-rank gate; 32 heads of 128, P = 4,096,
//	  kernel 4): q/k/v_proj 3 × h × P + f_a/g_a 2 × h × 128 + f_b/g_b
//	  2 × 128 × P + b_proj h × 32 + q/k/v_conv1d 3 × P × 4 + dt_bias P
//	  + A_log 32 + o_norm 128 + o_proj P × h                  =    39,514,272
//	MLA layer (KimiMLAAttention: q_lora_rank null, NoPE, 32 heads):
//	  q_proj h × 32 × 192 + kv_a_proj_with_mqa h × 576 + kv_a_layernorm 512
//	  + kv_b_proj 512 × 32 × 256 + o_proj 32 × 128 × h         =    29,114,880
//	dense layer 0: 3 × h × 9,216                              =    63,700,992
//	routed: 26 × 256 experts × 3 × h × 1,024                  = 47,110,422,528
//	shared: 26 × 3 × h × 1,024                                =   184,025,088
//	router: 26 × (h × 256 + 256 e_score_correction_bias)      =    15,342,080
//	norms: 27 × 2h + h                                        =       126,720
//	embedding and lm_head: 2 × 163,840 × h                    =   754,974,720
//	total                                                     = 49,122,681,728
//
// exactly the parameter total of the checkpoint's 20 safetensors files in the
// same report (49,122,681,728; 91.50 GB in BF16 with float32 A_log and
// dt_bias). The model card says 48B total, 3B activated: active per token is
// the total less the routed experts plus 26 × 8 of them = 3,484,459,904
// (2.73 B without the embedding and LM head). State per sequence and KDA
// layer at TP 2: conv 3 × 4,096 / 2 × 3 = 18,432 values in the activation
// dtype, recurrent 16 × 128 × 128 = 262,144 float32 — Kimi-K3's shapes
// (MambaStateShapeCalculator.kda_state_shape, kda_state_dtype).
func TestKimiLinear48B(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/kimi-linear-48b-a3b-instruct.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatalf("Kimi-Linear-48B refused: %v", err)
	}
	k := m.KimiLinear
	if m.ModelType != "kimi_linear" || k == nil || k.FullRankGate || k.OutputGate || k.AttnRes || k.LatentNorm || m.Wrapper != "" {
		t.Fatalf("read as %s, KimiLinear %+v, wrapper %q", m.ModelType, k, m.Wrapper)
	}
	attn := 0
	for i := 0; i < m.NumLayers; i++ {
		attn += boolInt(m.HasAttention(i))
	}
	if m.LinearLayerCount() != 20 || attn != 7 || !m.IsLinearLayer(0) || m.IsLinearLayer(3) || m.IsLinearLayer(26) || m.MoELayerCount() != 26 || m.IsMoELayer(0) {
		t.Errorf("KDA layers %d, MLA layers %d, MoE layers %d", m.LinearLayerCount(), attn, m.MoELayerCount())
	}
	if !m.IsMLA() || m.QLoraRank != 0 || m.MoELatentSize != 0 || m.ExpertsPerToken != 8 || m.NumSharedExperts != 1 {
		t.Errorf("MLA %v, q_lora %d, latent %d, top-k %d, shared %d", m.IsMLA(), m.QLoraRank, m.MoELatentSize, m.ExpertsPerToken, m.NumSharedExperts)
	}
	const h = 2304.0
	const P = 32 * 128.0
	kda := 3*h*P + 2*h*128 + 2*128*P + h*32 + 3*P*4 + P + 32 + 128 + P*h
	mla := h*32*192 + h*576 + 512 + 512*32*256 + 32*128*h
	if kda != 39514272 || mla != 29114880 {
		t.Fatalf("hand count drifted: KDA %.0f, MLA %.0f", kda, mla)
	}
	pc := m.ParamCounts()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"KDA layer", pc.LinearAttentionPerLayer, kda},
		{"MLA layer", pc.AttentionPerLayer, mla},
		{"attention", pc.Attention, 20*kda + 7*mla},
		{"dense MLP", pc.DenseMLP, 3 * h * 9216},
		{"routed experts", pc.RoutedExperts, 26 * 256 * 3 * h * 1024},
		{"shared experts", pc.SharedExperts, 26 * 3 * h * 1024},
		{"router", pc.Router, 26 * (h*256 + 256)},
		{"norms", pc.Norms, 27*2*h + h},
		{"total (the checkpoint's tensors)", pc.Total, 49122681728},
		{"active", pc.Active(m), 3484459904},
	} {
		if c.got != c.want {
			t.Errorf("%s: %.0f, want %.0f", c.name, c.got, c.want)
		}
	}
	// The model card's "48B" total and "3B" activated (without the
	// vocabulary matrices), to the card's rounding.
	if tot, act := pc.Total/1e9, (pc.Active(m)-pc.Embedding-pc.LMHead)/1e9; math.Abs(tot-48) > 1.5 || math.Abs(act-3) > 0.5 {
		t.Errorf("%.2f B total, %.2f B active: the card says 48B and 3B", tot, act)
	}
	// One of 2 TP ranks: f_a, g_a (ReplicatedLinear) and o_norm whole.
	if got, want := m.LinearAttentionParams(2), (kda-2*h*128-128)/2+2*h*128+128; got != want {
		t.Errorf("KDA layer per rank at TP 2 %.0f, want %.0f", got, want)
	}
	if conv, rec := m.GDNStateElems(2); conv != 18432 || rec != 262144 || m.GDN.SSMDType != "fp32" {
		t.Errorf("state at TP 2: conv %d, recurrent %d (%s); want 18,432 and 262,144 float32", conv, rec, m.GDN.SSMDType)
	}
}

// TestKimiLinearAWQCheckpoint: the AWQ checkpoint vllm-project/vllm#28228
// served, as vlaunch assumes it (its config.json was not found; a public
// deployment note says compressed-tensors INT4, group 32, symmetric,
// weight-only): the routed experts INT4 W4A16 at 4 bits + a 16-bit scale per
// 32 (0.5625 B), everything else (attention, KDA, shared experts, dense MLP,
// router, vocabulary) in the activation dtype — the split the log's 14.2491
// GiB per GPU at TP 2 holds (estimate/memory TestKimiLinearLogKVFromLoggedMemory).
func TestKimiLinearAWQCheckpoint(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/kimi-linear-48b-a3b-instruct-awq-4bit.written.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	q := m.Quant
	if m.CheckpointDType() != FormatINT4 || q.GroupSize != 32 || q.ZeroPoint || q.BytesPerParam(m.HiddenSize) != 0.5625 || q.Shares == nil ||
		q.Shares.Routed != 1 || q.Shares.Attention != 0 || q.Shares.Shared != 0 || q.Shares.DenseMLP != 0 {
		t.Errorf("read as %s (%+v), shares %+v", m.CheckpointDType(), q, q.Shares)
	}
	// The checkpoint's bytes by that split: 47.11 B routed parameters at
	// 0.5625 B, 2.01 B in BF16 = 30.52 GB (float32 dt_bias/A_log aside).
	pc := m.ParamCounts()
	want := pc.RoutedExperts*0.5625 + (pc.Total-pc.RoutedExperts)*2
	if math.Abs(want/1e9-30.52) > 0.01 {
		t.Errorf("checkpoint %.2f GB by hand", want/1e9)
	}
}

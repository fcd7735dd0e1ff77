package catalog

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestEncoderCounts counts each wrapper's vision encoder by hand from its
// config.json, module by module as vLLM builds it (catalog/vision.go
// cites the files), and checks what vLLM splits over TP.
func TestEncoderCounts(t *testing.T) {
	const h, i = 1152.0, 4304.0
	// A SigLIP / Qwen3-VL ViT block: two LayerNorms (weight, bias), qkv
	// and proj with biases, fc1 and fc2 with biases.
	block := 2*2*h + (3*h*h + 3*h) + (h*h + h) + (h*i + i) + (i*h + h) // 15,239,504
	blockShard := 3*h*h + 3*h + h*h + h*i + i + i*h                    // 15,232,592
	// Gemma 4's layer: q, k, v, o (16 heads of 72 = 1152) without bias,
	// q_norm and k_norm (72 each), four RMSNorms, gate/up/down.
	g4layer := 4*h*h + 2*72 + 4*h + 3*h*i // 20,187,792
	// Qwen3-VL's merger: LayerNorm over 1152 (or 4608 after the shuffle),
	// fc1 4608→4608 and fc2 4608→4096 with biases.
	const m4 = 4 * h
	mergerShard := m4*m4 + m4 + m4*4096
	tests := []struct {
		name, file, config string
		params, sharded    float64
		kind               string
		deepStack          int
	}{
		{name: "Gemma-3-27B (SigLIP)", file: "testdata/hf/gemma-3-27b-it.reconstructed.json", kind: "siglip",
			// Conv2d 3×14×14×1152 + bias; 64² positions; 27 blocks; post
			// LayerNorm; projector 1152×5376 and its RMSNorm.
			params:  (3*14*14*h + h) + 4096*h + 27*block + 2*h + h*5376 + h,
			sharded: 27 * blockShard},
		{name: "Gemma-4-31B-it", file: "testdata/hf/gemma-4-31b-it-nvfp4.verbatim.json", kind: "gemma4_vision",
			// input_proj 768×1152; position table 2×10,240×1152; 27
			// layers; standardize bias and scale; embed_vision 1152×5376.
			params: 3*16*16*h + 2*10240*h + 27*g4layer + 2*h + h*5376},
		{name: "Gemma-4-26B-A4B", file: "models/google__gemma-4-26B-A4B.json", kind: "gemma4_vision",
			params: 3*16*16*h + 2*10240*h + 27*g4layer + 2*h + h*2816},
		{name: "Qwen3-VL-8B", config: qwen3VL8B, kind: "qwen3_vl",
			// Conv3d 3×2×16×16×1152 + bias; 2,304 positions; 27 blocks;
			// merger; three DeepStack mergers.
			params:  (3*2*16*16*h + h) + 2304*h + 27*block + (2*h + mergerShard + 4096) + 3*(2*m4+mergerShard+4096),
			sharded: 27*blockShard + 4*mergerShard, deepStack: 3},
		{name: "Qwen3.5-27B", file: "testdata/hf/qwen3.5-27b.verbatim.json", kind: "qwen3_vl",
			// Qwen3-VL's tower without DeepStack, its merger out to 5120.
			params:  (3*2*16*16*h + h) + 2304*h + 27*block + (2*h + m4*m4 + m4 + m4*5120 + 5120),
			sharded: 27*blockShard + m4*m4 + m4 + m4*5120},
		{name: "Kimi-K2.5 (MoonViT)", file: "testdata/hf/kimi-k2.5.verbatim.json", kind: "moonvit",
			// Conv2d 3×14×14×1152 + bias; the 64×64 position table; 27
			// blocks; final LayerNorm; patchmerger: LayerNorm over 1152,
			// linear_1 4608→4608 and linear_2 4608→7168 (mm_hidden_size
			// 1152 = the tower's, so the text hidden_size), with biases.
			params:  (3*14*14*h + h) + 64*64*h + 27*block + 2*h + (2*h + m4*m4 + m4 + m4*7168 + 7168),
			sharded: 27 * blockShard},
		{name: "Llama-4-Scout (Llama4VisionModel)", file: "testdata/hf/llama-4-scout-17b-16e-instruct.reconstructed.json", kind: "llama4_vision",
			// A public per-module dump of the Scout checkpoint (search
			// index id 41112263523) lists these sizes: patch linear
			// 827,904, class embedding 1,408, positional_embedding_vlm
			// 812,416, layernorm_pre/post 4×1,408; per layer q, k, v, o
			// 1,982,464 + 1,408 each, fc1 7,929,856 + 5,632, fc2 7,929,856
			// + 1,408, two LayerNorms; vision_adapter fc1 23,068,672 and
			// fc2 16,777,216; multi_modal_projector.linear_1 20,971,520.
			// 871,932,416 in all: Scout's index total_size less its text
			// model, to the byte (memory.TestIssue23WeightsMatchCheckpointBytes).
			params: 827904 + 1408 + 812416 + 4*1408 + 34*(4*(1408*1408+1408)+(1408*5632+5632)+(5632*1408+1408)+4*1408) +
				23068672 + 16777216 + 20971520,
			// Split: the patch linear, each layer's qkv (weights and
			// biases), o_proj and fc2 weights, fc1 weight and bias, the
			// adapter and the projector.
			sharded: 827904 + 34*(3*(1408*1408+1408)+1408*1408+1408*5632+5632+5632*1408) + 23068672 + 16777216 + 20971520},
		{name: "Llama-4-Maverick (Llama4VisionModel)", file: "testdata/hf/llama-4-maverick-17b-128e-instruct.reconstructed.json", kind: "llama4_vision",
			params: 827904 + 1408 + 812416 + 4*1408 + 34*(4*(1408*1408+1408)+(1408*5632+5632)+(5632*1408+1408)+4*1408) +
				23068672 + 16777216 + 20971520,
			sharded: 827904 + 34*(3*(1408*1408+1408)+1408*1408+1408*5632+5632+5632*1408) + 23068672 + 16777216 + 20971520},
		// Not counted: the trimmed Kimi-K2.5 testdata (three sizes, no
		// patch or position sizes) and the reduced Qwen3-VL-235B testdata
		// (no patch sizes).
		{name: "Kimi-K2.5 trimmed", file: "testdata/hf/kimi-k2.5.json"},
		{name: "Qwen3-VL-235B reduced", file: "testdata/hf/qwen3-vl-235b-a22b-instruct.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.config)
			if tt.file != "" {
				var err error
				if data, err = os.ReadFile(tt.file); err != nil {
					t.Fatal(err)
				}
			}
			m, err := ParseHFConfig(data)
			if err != nil {
				t.Fatal(err)
			}
			e := m.Encoder
			if tt.kind == "" {
				if e != nil {
					t.Fatalf("encoder counted: %+v", e)
				}
				if len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "are not counted") {
					t.Errorf("notes %q", m.Notes)
				}
				return
			}
			if e == nil {
				t.Fatalf("no encoder; notes %q", m.Notes)
			}
			if e.Kind != tt.kind || e.Params != tt.params || e.ShardedParams != tt.sharded {
				t.Errorf("%s: %.0f params (%.0f sharded), want %s %.0f (%.0f)", e.Kind, e.Params, e.ShardedParams, tt.kind, tt.params, tt.sharded)
			}
			if e.DeepStackLevels != tt.deepStack {
				t.Errorf("%d DeepStack buffer levels, want %d", e.DeepStackLevels, tt.deepStack)
			}
			if got, want := e.PerGPU(4), tt.params-tt.sharded*3/4; got != want {
				t.Errorf("TP4: %.0f per GPU, want %.0f", got, want)
			}
			// Llama 4 carries a second note (its chunked local attention).
			if n := len(m.Notes); n == 0 || !strings.Contains(m.Notes[n-1], "counted in weights per GPU") {
				t.Errorf("notes %q", m.Notes)
			}
			t.Logf("%s: %.0f parameters (%.3f GiB in BF16), %.0f split over TP", tt.name, e.Params, e.Params*2/(1<<30), e.ShardedParams)
		})
	}
	// The sums, written out: they are what the report quotes.
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"Gemma 3", (3*14*14*h + h) + 4096*h + 27*block + 2*h + h*5376 + h, 423060336},
		{"Gemma 4 31B", 3*16*16*h + 2*10240*h + 27*g4layer + 2*h + h*5376, 575743536},
		{"Gemma 4 26B", 3*16*16*h + 2*10240*h + 27*g4layer + 2*h + h*2816, 572794416},
		{"Qwen3-VL-8B", (3*2*16*16*h + h) + 2304*h + 27*block + (2*h + mergerShard + 4096) + 3*(2*m4+mergerShard+4096), 576388336},
		{"Qwen3.5-27B", (3*2*16*16*h + h) + 2304*h + 27*block + (2*h + m4*m4 + m4 + m4*5120 + 5120), 460730096},
		{"Kimi-K2.5", (3*14*14*h + h) + 64*64*h + 27*block + 2*h + (2*h + m4*m4 + m4 + m4*7168 + 7168), 471143920},
	} {
		if c.got != c.want {
			t.Errorf("%s: %.0f, want %.0f", c.name, c.got, c.want)
		}
	}
}

// TestAudioTowerNotCounted: a Gemma 4 with an audio_config (E2B/E4B)
// counts its vision encoder and says the audio tower is left out; a null
// audio_config says nothing.
func TestAudioTowerNotCounted(t *testing.T) {
	data, err := os.ReadFile("models/google__gemma-4-26B-A4B.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseHFConfig(data)
	if err != nil || m.Encoder == nil || strings.Contains(m.Notes[0], "audio") {
		t.Fatalf("%v; notes %q", err, m.Notes)
	}
	withAudio := strings.Replace(string(data), `"audio_config": null`, `"audio_config": {"hidden_size": 1024}`, 1)
	if withAudio == string(data) {
		t.Fatal("audio_config not found in the config")
	}
	m, err = ParseHFConfig([]byte(withAudio))
	if err != nil || m.Encoder == nil || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "audio tower (audio_config) is not counted") {
		t.Errorf("%v; notes %q", err, m.Notes)
	}
}

// TestEncoderNeedsItsSizes: a vision_config without a size the count
// needs, or with a nonsensical one, counts nothing and says so.
func TestEncoderNeedsItsSizes(t *testing.T) {
	for _, v := range []string{
		`{"depth": 27, "hidden_size": 1152}`,
		`{"depth": 27, "hidden_size": 1152, "intermediate_size": 4304, "patch_size": 16, "temporal_patch_size": 2, "num_position_embeddings": 2304, "out_hidden_size": 4096, "spatial_merge_size": 2, "deepstack_visual_indexes": "x"}`,
		`{"depth": -1, "hidden_size": 1152, "intermediate_size": 4304, "patch_size": 16, "temporal_patch_size": 2, "num_position_embeddings": 2304, "out_hidden_size": 4096, "spatial_merge_size": 2}`,
	} {
		cfg := strings.Replace(qwen3VL8B, qwen3VL8BVision, v, 1)
		m, err := ParseHFConfig([]byte(cfg))
		if err != nil {
			t.Fatal(err)
		}
		if m.Encoder != nil || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "not counted") {
			t.Errorf("%s: encoder %+v, notes %q", v, m.Encoder, m.Notes)
		}
	}
}

const qwen3VL8BVision = `{"model_type": "qwen3_vl", "depth": 27, "hidden_size": 1152, "intermediate_size": 4304, "num_heads": 16,
  "in_channels": 3, "patch_size": 16, "temporal_patch_size": 2, "spatial_merge_size": 2, "num_position_embeddings": 2304,
  "out_hidden_size": 4096, "deepstack_visual_indexes": [8, 16, 24]}`

// qwen3VL8B is Qwen3-VL-8B-Instruct's config.json reduced to what vlaunch
// reads, its values as public copies quote them (not a verbatim copy).
const qwen3VL8B = `{"architectures": ["Qwen3VLForConditionalGeneration"], "model_type": "qwen3_vl", "tie_word_embeddings": false,
 "text_config": {"model_type": "qwen3_vl_text", "hidden_size": 4096, "intermediate_size": 12288, "num_hidden_layers": 36,
  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936, "max_position_embeddings": 262144,
  "rope_theta": 5000000, "torch_dtype": "bfloat16"},
 "vision_config": ` + qwen3VL8BVision + `}`

// TestMoonViTNeedsKimiK25Layout: a Kimi-K2.5 vision_config whose projector,
// norms, MLP or sizes are not a layout vLLM's kimi_k25_vit.py (read at
// 055e47c2) builds, or that lacks a size, counts nothing and says so,
// rather than a wrong tower. The layouts it does build (rmsnorm, no biases,
// a narrower qkv, patchmergerv2) are counted: TestMoonViTLayouts.
func TestMoonViTNeedsKimiK25Layout(t *testing.T) {
	data, err := os.ReadFile("testdata/hf/kimi-k2.5.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ old, new string }{
		{`"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmergerv3"`},
		{`"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmerger", "norm_type": "groupnorm"`},
		{`"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmerger", "mlp_type": "swiglu"`},
		{`"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmerger", "attn_bias": "no"`},
		{`"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmerger", "qkv_hidden_size": 1000`},
		{`"pos_emb_type": "divided_fixed"`, `"pos_emb_type": "rope"`},
		{`"init_pos_emb_height": 64`, `"init_pos_emb_height": 0`},
		{`"vt_num_hidden_layers": 27`, `"vt_num_hidden_layers": "27"`},
		{`"merge_kernel_size": [`, `"merge_kernel_size": [3, `},
	} {
		cfg := strings.Replace(string(data), c.old, c.new, 1)
		if cfg == string(data) {
			t.Fatalf("%s not found", c.old)
		}
		m, err := ParseHFConfig([]byte(cfg))
		if err != nil {
			t.Fatal(err)
		}
		if m.Encoder != nil || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "not counted") {
			t.Errorf("%s: encoder %+v, notes %q", c.new, m.Encoder, m.Notes)
		}
	}
}

// TestKimiK3VisionTower: Kimi-K3's MoonViT (catalog/testdata/hf/
// kimi-k3.verbatim.json), derived by hand from its vision_config as vLLM's
// kimi_k25_vit.py (055e47c2) builds it for KimiK3ForConditionalGeneration
// (vllm/models/kimi_k3/nvidia/model.py, 006193b5), all in BF16 (the wrapper
// drops the compressed-tensors quant_config for the tower and projector):
//
//	patch embedding  Conv2d 3 × 14² × 1,024, no bias (patch_embed_proj_bias false)      602,112
//	position table   64 × 64 × 1,024                                                 4,194,304
//	27 blocks        two RMSNorms 2 × 1,024; wqkv 1,024 × 3 × 1,536 and wo 1,536 ×
//	                 1,024 (qkv_hidden_size 1,536 = 12 heads × 128, attn_bias false);
//	                 fc0 1,024 × 4,096 and fc1 4,096 × 1,024 (linear_bias false):
//	                 14,682,112 each                                               396,417,024
//	final RMSNorm    1,024                                                               1,024
//	patchmergerv2    linear_1 4,096 × 4,096, linear_2 4,096 × 7,168 (text_hidden_size,
//	                 the text model's), post RMSNorm 7,168                          46,144,512
//	total                                                                          447,358,976
//
// That is 0.895 GB in BF16, the share of the release index (1,560.86 GB)
// the text model left uncounted (TestIssue23WeightsMatchCheckpointBytes).
// Its 12 heads do not divide over TP 8, so vLLM runs the tower data
// parallel there, whole on every GPU; over TP 4 the blocks split.
func TestKimiK3VisionTower(t *testing.T) {
	data, err := os.ReadFile("testdata/hf/kimi-k3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Vision struct {
			Patch      float64    `json:"patch_size"`
			PosH       float64    `json:"init_pos_emb_height"`
			PosW       float64    `json:"init_pos_emb_width"`
			Hidden     float64    `json:"vt_hidden_size"`
			Inter      float64    `json:"vt_intermediate_size"`
			Layers     float64    `json:"vt_num_hidden_layers"`
			Heads      int        `json:"vt_num_attention_heads"`
			QKV        float64    `json:"qkv_hidden_size"`
			Merge      [2]float64 `json:"merge_kernel_size"`
			Norm       string     `json:"norm_type"`
			Projector  string     `json:"mm_projector_type"`
			AttnBias   bool       `json:"attn_bias"`
			LinearBias bool       `json:"linear_bias"`
			PatchBias  bool       `json:"patch_embed_proj_bias"`
		} `json:"vision_config"`
		Text struct {
			Hidden float64 `json:"hidden_size"`
		} `json:"text_config"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	v := cfg.Vision
	if v.Norm != "rmsnorm" || v.Projector != "patchmergerv2" || v.AttnBias || v.LinearBias || v.PatchBias {
		t.Fatalf("the fixture's layout changed: %+v", v)
	}
	h, i, q := v.Hidden, v.Inter, v.QKV
	patch := 3 * v.Patch * v.Patch * h
	pos := v.PosH * v.PosW * h
	blockShard := h*3*q + q*h + h*i + i*h
	block := 2*h + blockShard
	m := h * v.Merge[0] * v.Merge[1]
	proj := m*m + m*cfg.Text.Hidden + cfg.Text.Hidden
	want := patch + pos + v.Layers*block + h + proj
	if want != 447358976 || blockShard*v.Layers != 396361728 {
		t.Fatalf("hand count %.0f (%.0f sharded), the comment says 447,358,976 (396,361,728)", want, blockShard*v.Layers)
	}
	mdl, err := ParseHFConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	e := mdl.Encoder
	if e == nil {
		t.Fatalf("no encoder; notes %q", mdl.Notes)
	}
	if e.Kind != "moonvit" || e.Params != want || e.ShardedParams != v.Layers*blockShard || e.Heads != v.Heads {
		t.Errorf("%s: %.0f params (%.0f sharded, %d heads), want moonvit %.0f (%.0f, %d)", e.Kind, e.Params, e.ShardedParams, e.Heads, want, v.Layers*blockShard, v.Heads)
	}
	for _, c := range []struct {
		tp   int
		want float64
	}{{1, want}, {2, want - v.Layers*blockShard/2}, {4, want - v.Layers*blockShard*3/4}, {8, want}, {16, want}} {
		if got := e.PerGPU(c.tp); got != c.want {
			t.Errorf("TP %d: %.0f per GPU, want %.0f (12 heads: split only where TP divides them)", c.tp, got, c.want)
		}
	}
	if len(mdl.Notes) != 1 || !strings.Contains(mdl.Notes[0], "counted in weights per GPU") {
		t.Errorf("notes %q", mdl.Notes)
	}
}

// TestMoonViTLayouts: the layout keys kimi_k25_vit.py reads (norm_type,
// qkv_hidden_size, attn_bias, linear_bias, patch_embed_proj_bias,
// mm_projector_type) change Kimi-K2.5's count as the module builds it, and
// Kimi-K3's defaults (KimiK3VisionConfig) apply where its file omits them.
func TestMoonViTLayouts(t *testing.T) {
	k25, err := os.ReadFile("testdata/hf/kimi-k2.5.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	const h, i, m4, out = 1152.0, 4304.0, 4 * 1152.0, 7168.0
	base := (3*14*14*h + h) + 64*64*h + 27*(4*h+3*h*h+3*h+h*h+h+h*i+i+i*h+h) + 2*h + (2*h + m4*m4 + m4 + m4*out + out)
	for _, c := range []struct {
		name, old, new string
		delta          float64
	}{
		{"rmsnorm: weights only", `"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmerger", "norm_type": "rmsnorm"`, -(27*2 + 1) * h},
		{"no attention biases", `"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmerger", "attn_bias": false`, -27 * 4 * h},
		{"no MLP biases", `"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmerger", "linear_bias": false`, -27 * (i + h)},
		{"no patch bias", `"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmerger", "patch_embed_proj_bias": false`, -h},
		{"qkv 1,536 wide", `"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmerger", "qkv_hidden_size": 1536`, 27 * (4*384*h + 3*384)},
		{"patchmergerv2", `"mm_projector_type": "patchmerger"`, `"mm_projector_type": "patchmergerv2"`, -(2*h + m4 + out) + out},
	} {
		cfg := strings.Replace(string(k25), c.old, c.new, 1)
		if cfg == string(k25) {
			t.Fatalf("%s not found", c.old)
		}
		mdl, err := ParseHFConfig([]byte(cfg))
		if err != nil {
			t.Fatal(err)
		}
		if mdl.Encoder == nil || mdl.Encoder.Params != base+c.delta {
			t.Errorf("%s: encoder %+v, want %.0f parameters", c.name, mdl.Encoder, base+c.delta)
		}
	}
	// Kimi-K3 without its layout keys: KimiK3VisionConfig's defaults are
	// the file's values, so the count stands.
	k3, err := os.ReadFile("testdata/hf/kimi-k3.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(k3, &top); err != nil {
		t.Fatal(err)
	}
	var vision map[string]json.RawMessage
	if err := json.Unmarshal(top["vision_config"], &vision); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"qkv_hidden_size", "norm_type", "attn_bias", "linear_bias", "patch_embed_proj_bias", "mm_projector_type"} {
		delete(vision, k)
	}
	top["vision_config"], _ = json.Marshal(vision)
	trimmed, _ := json.Marshal(top)
	mdl, err := ParseHFConfig(trimmed)
	if err != nil {
		t.Fatal(err)
	}
	if mdl.Encoder == nil || mdl.Encoder.Params != 447358976 {
		t.Errorf("Kimi-K3 on KimiK3VisionConfig's defaults: encoder %+v, want 447,358,976 parameters", mdl.Encoder)
	}
	// Without its heads vLLM's split cannot be told: not counted.
	delete(vision, "vt_num_attention_heads")
	top["vision_config"], _ = json.Marshal(vision)
	trimmed, _ = json.Marshal(top)
	if mdl, err = ParseHFConfig(trimmed); err != nil || mdl.Encoder != nil {
		t.Errorf("Kimi-K3 without vt_num_attention_heads: %v, encoder %+v", err, mdl.Encoder)
	}
}

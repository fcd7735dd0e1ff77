package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestStep3p7Wrapper: Step-3.7-Flash in the Hugging Face layout vLLM's
// step3p7.py reads (testdata/hf/step-3.7-flash.reconstructed.json) is its
// text_config read as Step-3.5-Flash (the very same language model: every
// field equal to step-3.5-flash.verbatim.json's reading) plus the
// PerceptionEncoder tower and projector, counted by hand from its
// vision_config (width 1,536, 47 layers, MLP int(1,536 × 8960/1536) =
// 8,960, 52 × 52 patches of 14 on a 728 image):
//
//	conv1        3 × 14² × 1,536                                  =       903,168
//	position     52² × 1,536 (use_abs_posemb, no class token)     =     4,153,344
//	ln_pre       2 × 1,536                                        =         3,072
//	block        4w + (3w² + 3w) + (w² + w) + (wf + f) + (fw + w)
//	             + ls_1, ls_2 2w                                  =    36,988,160
//	47 blocks                                                     = 1,738,443,520
//	downsamplers 1,536 × 3,072 × 9 + 3,072 + 3,072 × 6,144 × 9 + 6,144 = 212,345,856
//	projector    6,144 × 4,096 (projector_bias false)             =    25,165,824
//	total                                                         = 1,981,014,784
//
// of which vLLM splits over TP the blocks' qkv (weight and bias),
// out_proj's weight, fc1 (weight and bias), fc2's weight — 36,975,872 a
// block — and the projector: 47 × 36,975,872 + 25,165,824 = 1,763,031,808.
func TestStep3p7Wrapper(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/step-3.7-flash.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatalf("Step-3.7 refused: %v", err)
	}
	if m.ModelType != "step3p5" || m.Wrapper != "step3p7" || m.Architecture != "Step3p7ForConditionalGeneration" {
		t.Errorf("read as %s in wrapper %q (%s)", m.ModelType, m.Wrapper, m.Architecture)
	}
	const w, f = 1536.0, 8960.0
	block := 4*w + (3*w*w + 3*w) + (w*w + w) + (w*f + f) + (f*w + w) + 2*w
	shard := (3*w*w + 3*w) + w*w + (w*f + f) + f*w
	down := w*2*w*9 + 2*w + 2*w*4*w*9 + 4*w
	proj := 4 * w * 4096
	want := 3*14*14*w + 52*52*w + 2*w + 47*block + down + proj
	if block != 36988160 || want != 1981014784 || 47*shard+proj != 1763031808 {
		t.Fatalf("hand count drifted: block %.0f, total %.0f, sharded %.0f", block, want, 47*shard+proj)
	}
	e := m.Encoder
	if e == nil {
		t.Fatalf("vision tower not counted: %v", m.Notes)
	}
	if e.Kind != "perception_encoder" || e.Params != want || e.ShardedParams != 47*shard+proj {
		t.Errorf("encoder %s %.0f (sharded %.0f), want perception_encoder %.0f (sharded %.0f)", e.Kind, e.Params, e.ShardedParams, want, 47*shard+proj)
	}
	if got, wantTP4 := e.PerGPU(4), want-(47*shard+proj)*3/4; got != wantTP4 {
		t.Errorf("encoder per GPU at TP 4 %.0f, want %.0f", got, wantTP4)
	}
	if len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "perception_encoder, 1.981 B parameters") {
		t.Errorf("notes %q", m.Notes)
	}

	// The language model is Step-3.5-Flash's, field for field.
	s35, err := LoadHFConfig("testdata/hf/step-3.5-flash.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	ignore := cmpopts.IgnoreFields(Model{}, "Wrapper", "Architecture", "Encoder", "Notes")
	if d := cmp.Diff(s35, m, ignore, cmpopts.IgnoreUnexported(Quantization{})); d != "" {
		t.Errorf("Step-3.7's text_config read differently from Step-3.5-Flash (-3.5 +3.7):\n%s", d)
	}
}

// TestPerceptionEncoderFields: the flags a vision_config states move the
// count as vLLM's PerceptionEncoder builds the modules; a missing size
// leaves the tower uncounted (and the note says so) rather than guessed.
func TestPerceptionEncoderFields(t *testing.T) {
	const w, th = 32.0, 256.0
	base := map[string]any{"width": 32, "layers": 2, "heads": 2, "patch_size": 14, "image_size": 728, "mlp_ratio": 2.0}
	f := 64.0
	block := 4*w + (3*w*w + 3*w) + (w*w + w) + (w*f + f) + (f*w + w)
	down := w*2*w*9 + 2*w + 2*w*4*w*9 + 4*w
	conv := 3 * 14 * 14 * w
	pos := 52 * 52 * w
	tests := []struct {
		name   string
		vision map[string]any
		bias   bool
		want   float64 // 0: not counted
	}{
		{"defaults", nil, false, conv + pos + 2*w + 2*(block+2*w) + down + 4*w*th},
		{"projector bias", nil, true, conv + pos + 2*w + 2*(block+2*w) + down + 4*w*th + th},
		{"class token, ln_post, no layer scale", map[string]any{"use_cls_token": true, "use_ln_post": true, "ls_init_value": nil},
			false, conv + w + (1+52*52)*w + 4*w + 2*block + down + 4*w*th},
		{"no position embedding, no ln_pre", map[string]any{"use_abs_posemb": false, "use_ln_pre": false},
			false, conv + 2*(block+2*w) + down + 4*w*th},
		{"no mlp_ratio", map[string]any{"mlp_ratio": nil}, false, 0},
		{"no width", map[string]any{"width": nil}, false, 0},
		{"image not a multiple of the patch", map[string]any{"image_size": 730}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := map[string]any{}
			for k, x := range base {
				v[k] = x
			}
			for k, x := range tt.vision {
				if x == nil {
					delete(v, k)
					if k == "ls_init_value" {
						v[k] = nil
					}
					continue
				}
				v[k] = x
			}
			text := map[string]any{"model_type": "step3p5", "hidden_size": 256, "intermediate_size": 256, "num_hidden_layers": 2,
				"num_attention_heads": 4, "num_attention_groups": 2, "head_dim": 64, "vocab_size": 1024,
				"layer_types": []string{"full_attention", "sliding_attention"}, "sliding_window": 64,
				"attention_other_setting": map[string]any{"attention_type": "sliding_attention", "num_attention_heads": 4, "num_attention_groups": 2, "head_dim": 64}}
			cfg, _ := json.Marshal(map[string]any{"architectures": []string{"Step3p7ForConditionalGeneration"}, "model_type": "step3p7",
				"projector_bias": tt.bias, "vision_config": v, "text_config": text})
			m, err := ParseHFConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Modelled(); err != nil {
				t.Fatal(err)
			}
			if tt.want == 0 {
				if m.Encoder != nil || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "are not counted") {
					t.Errorf("encoder %+v, notes %q: want it not counted", m.Encoder, m.Notes)
				}
				return
			}
			if m.Encoder == nil || m.Encoder.Params != tt.want {
				t.Fatalf("encoder %+v, want %.0f parameters", m.Encoder, tt.want)
			}
		})
	}
}

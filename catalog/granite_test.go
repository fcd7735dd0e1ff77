package catalog

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestGraniteHybridParams counts Granite-4.0-H's parameters by hand from
// the reconstructed configs (testdata/hf/README.md says which fields are
// verbatim) as vLLM's granitemoehybrid.py builds the layers:
//
//   - embeddings V × h, tied to the LM head;
//   - 4 attention layers: q and o h × heads × (h / heads), k and v
//     h × kv × (h / heads), no bias;
//   - 36 Mamba-2 layers (MambaMixer2): in_proj h × (2 × inner + 2 ×
//     groups × state + heads), conv1d (inner + 2 × groups × state) × d_conv
//     and its bias, dt_bias, A, D (3 × heads), the gated norm (inner),
//     out_proj inner × h, with inner = mamba_expand × h;
//   - every layer: experts 3 × h × intermediate_size each, a router h × E,
//     a shared MLP 3 × h × shared_intermediate_size (or, without experts,
//     that MLP alone), two RMSNorms; one final norm.
//
// Granite-4.0-H-Small: 32,207,337,984 total, 8,803,121,664 active (IBM's
// card: 32B total, 9B active; en.immers.cloud's model page: "Parameters:
// 32.2B"); -Tiny: 6,939,037,248 (card 7B; llama.cpp's
// loader prints "model params = 6.94 B", LostRuins/koboldcpp#1781),
// 1,465,470,528 active (card "1B": −; the embeddings alone are 0.15B);
// -1B (dense): 1,461,538,368, whose BF16 bytes are the 2.72 GiB its vLLM
// 0.19.0 log loads.
func TestGraniteHybridParams(t *testing.T) {
	for _, tt := range []struct {
		file          string
		h, heads, kv  float64
		mheads        float64
		experts, topk float64
		inter, shared float64
		total, active float64
		card          float64
	}{
		{"testdata/hf/granite-4.0-h-small.reconstructed.json", 4096, 32, 8, 128, 72, 10, 768, 1536, 32207337984, 8803121664, 32e9},
		{"testdata/hf/granite-4.0-h-tiny.reconstructed.json", 1536, 12, 4, 48, 64, 6, 512, 1024, 6939037248, 1465470528, 6.94e9},
		{"testdata/hf/granite-4.0-h-1b.reconstructed.json", 1536, 12, 4, 48, 0, 0, 4096, 4096, 1461538368, 1461538368, 1.5e9},
	} {
		m, err := LoadHFConfig(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		h, hd := tt.h, tt.h/tt.heads
		inner, bc := 2*h, 2*128.0
		attn := 2*h*tt.heads*hd + 2*h*tt.kv*hd
		mamba := h*(2*inner+bc+tt.mheads) + (inner+bc)*4 + (inner + bc) + 3*tt.mheads + inner + inner*h
		ffn := tt.experts*3*h*tt.inter + h*tt.experts + 3*h*tt.shared
		if tt.experts == 0 {
			ffn = 3 * h * tt.shared
		}
		total := 100352*h + 4*attn + 36*mamba + 40*ffn + 81*h
		active := total - 40*(tt.experts-tt.topk)*3*h*tt.inter
		if total != tt.total || active != tt.active {
			t.Fatalf("%s: by hand %.0f total, %.0f active", tt.file, total, active)
		}
		pc := m.ParamCounts()
		if pc.Total != total || pc.Active(m) != active {
			t.Errorf("%s: %.0f total, %.0f active; by hand %.0f, %.0f", tt.file, pc.Total, pc.Active(m), total, active)
		}
		if math.Abs(pc.Total-tt.card)/tt.card > 0.03 {
			t.Errorf("%s: %.3gB, the publisher says %.3gB", tt.file, pc.Total/1e9, tt.card/1e9)
		}
		if m.HeadDim != int(hd) || m.MambaLayerCount() != 36 || m.GraniteAllReduces() != 3-boolInt(tt.experts == 0) {
			t.Errorf("%s: head_dim %d, %d Mamba layers, %d all-reduces a layer", tt.file, m.HeadDim, m.MambaLayerCount(), m.GraniteAllReduces())
		}
	}
}

// TestGraniteHybridState: one Mamba-2 layer's state per sequence as
// MambaStateShapeCalculator.mamba2_state_shape gives it for
// Granite-4.0-H-Small (intermediate 2 × 4,096, 1 group, 128 heads of 64,
// state 128, d_conv 4): conv (4 − 1) × (8,192 + 2 × 128) = 25,344
// elements, temporal 128 × 64 × 128 = 1,048,576; on TP 4 the heads split
// (32 a rank) and the one group is repeated on every rank
// (extra_groups_for_head_shards): conv 3 × (2,048 + 2 × 128) = 6,912.
// Both in the model dtype (no mamba_ssm_cache_dtype hook for this model):
// 2,147,840 B a layer on one GPU, which vLLM's "Setting attention block
// size to 528 tokens" and "Padding mamba page size by 0.69%" for this
// model (ROCm/ROCm#5590) confirm: 528 × 2 × 8 × 128 × 2 B = 2,162,688 B ≥
// 2,147,840 B, +0.69%; a float32 temporal state would need 1,040 tokens.
func TestGraniteHybridState(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/granite-4.0-h-small.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Mamba.SSMDType != "" {
		t.Errorf("SSM dtype %q, want the model's (vLLM passes mamba_ssm_cache_dtype auto)", m.Mamba.SSMDType)
	}
	if c, s := m.MambaStateElems(1); c != 25344 || s != 1048576 {
		t.Errorf("TP1 state %d + %d elements", c, s)
	}
	if c, s := m.MambaStateElems(4); c != 6912 || s != 262144 {
		t.Errorf("TP4 state %d + %d elements", c, s)
	}
	page := int64(25344+1048576) * 2
	attn := int64(2 * 8 * 128 * 2)
	block := (page + attn*16 - 1) / (attn * 16) * 16
	if block != 528 || math.Round(float64(block*attn-page)/float64(page)*1e4)/100 != 0.69 {
		t.Errorf("attention block %d tokens, padding %.4f", block, float64(block*attn-page)/float64(page))
	}
}

// TestGraniteHybridRefusals: the trimmed copy without layer_types and the
// Mamba heads is refused for those fields, as a file of a family vlaunch
// models (not for lacking Mamba-2 state, nor sized as qwen3_moe); a
// layer_types entry of another kind and a rope Granite are refused.
func TestGraniteHybridRefusals(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/granite-4.0-h-small.trimmed.json")
	if err != nil {
		t.Fatal(err)
	}
	err = m.Modelled()
	var ue *UnmodelledError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "layer_types missing") ||
		!strings.Contains(err.Error(), `model_type "granitemoehybrid"`) || strings.Contains(err.Error(), "qwen3_moe") {
		t.Errorf("trimmed: %v", err)
	}
	data, _ := ReadHFConfigFile("testdata/hf/granite-4.0-h-small.reconstructed.json")
	for _, tt := range []struct{ from, to, want string }{
		{`"attention", "mamba", "mamba", "mamba", "mamba"]`, `"mlp", "mamba", "mamba", "mamba", "mamba"]`, `layer_types entry 35 is neither`},
		{`"nope"`, `"rope"`, "position_embedding_type rope"},
		{`"mamba_d_head": 64`, `"mamba_d_head": 32`, "mamba_expand 2 × hidden_size 4096 is not mamba_n_heads 128 × mamba_d_head 32"},
		{`"mamba_proj_bias": false`, `"mamba_proj_bias": true`, "mamba_proj_bias true"},
	} {
		edited := strings.Replace(string(data), tt.from, tt.to, 1)
		if edited == string(data) {
			t.Fatalf("%q not in the fixture", tt.from)
		}
		m, err := ParseHFConfig([]byte(edited))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Modelled(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s → %s: %v, want %q", tt.from, tt.to, err, tt.want)
		}
	}
}

package catalog

import (
	"math"
	"testing"
)

// TestGLM5IsDeepSeekSparseAttention: GLM-5 (glm_moe_dsa; config.json as
// aiconfigurator copies it, testdata/hf/glm-5.json) is read as vLLM builds
// it, DeepSeek-V3.2's MLA + DSA indexer with its own sizes: 78 layers (3
// dense), hidden 6144, 64 heads, q_lora 2048, kv_lora 512, qk_nope 192,
// rope 64, v 256, 256 experts of 2048 + 1 shared, indexer 32 heads of 128,
// top-2048. The count is worked out here by hand; the card says 744B total,
// 40B active (MTP layer excluded).
func TestGLM5IsDeepSeekSparseAttention(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/glm-5.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	if !m.IsMLA() || !m.IsSparseAttention() || m.IndexerCacheBytes() != 132 || m.TrustRemoteCode {
		t.Fatalf("read as %+v", m)
	}
	const h, nh, ql, kvl = 6144.0, 64.0, 2048.0, 512.0
	attn := h*ql + ql + ql*nh*256 + h*(kvl+64) + kvl + kvl*nh*(192+256) + nh*256*h
	indexer := ql*32*128 + h*128 + h*32 + 2*128
	expert := 3 * h * 2048
	moe := 78.0 - 3
	want := 2*154880*h + 78*(attn+indexer+2*h) + h + 3*3*h*12288 + moe*(257*expert+h*256+256)
	pc := m.ParamCounts()
	if math.Abs(pc.Total-want) > 1 {
		t.Errorf("total %.6g, want %.6g", pc.Total, want)
	}
	active := pc.Active(m)
	t.Logf("GLM-5: %.1fB total (card 744B), %.1fB active (card 40B)", pc.Total/1e9, active/1e9)
	if math.Abs(pc.Total/744e9-1) > 0.02 || math.Abs(active/40e9-1) > 0.05 {
		t.Errorf("total %.1fB / active %.1fB off the card's 744B / 40B", pc.Total/1e9, active/1e9)
	}
}

// TestGLM5NVFP4: nvidia/GLM-5-NVFP4's hf_quant_config.json excludes every
// layer's MLA projections (o_proj included) and indexer ("self_attn.
// indexer*"): attention and indexer stay BF16, MLPs and experts NVFP4.
func TestGLM5NVFP4(t *testing.T) {
	m := loadCkpt(t, "nvidia--GLM-5-NVFP4")
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	s := m.Quant.Shares
	if m.CheckpointDType() != FormatNVFP4 || s.Attention != 0 || s.Indexer != 0 || s.Routed != 1 || s.Shared != 1 || s.DenseMLP != 1 {
		t.Errorf("%s, shares %+v", m.CheckpointDType(), s)
	}
	t.Logf("GLM-5-NVFP4 served weights: %.1f GB", m.FourBitWeightBytes()/1e9)
}

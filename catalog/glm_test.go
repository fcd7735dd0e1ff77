package catalog

import "testing"

// TestGLM45Facts pins what vLLM's glm4_moe.py builds from GLM-4.5's and
// GLM-4.5-Air's config.json: GQA (96 query heads, 8 KV heads of 128),
// q/k/v biases without an o_proj bias, q/k norms only where use_qk_norm
// says so, half-rotary RoPE, first_k_dense_replace dense layers, one shared
// expert of moe_intermediate_size, a sigmoid router with a float32 gate and
// correction bias; loaded without --trust-remote-code (transformers ships
// Glm4MoeConfig). Active parameters are the model cards' 32B and 12B,
// which leave out the embedding and the LM head (33.6B and 13.4B with them).
func TestGLM45Facts(t *testing.T) {
	for _, tt := range []struct {
		id                       string
		qkNorm                   bool
		dense, experts, moeInter int
		activeB                  float64
	}{
		{"glm-4.5", true, 3, 160, 1536, 32},
		{"glm-4.5-air", false, 1, 128, 1408, 12},
	} {
		m, err := LookupModel(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		if m.NumHeads != 96 || m.NumKVHeads != 8 || m.HeadDim != 128 || m.IsMLA() {
			t.Errorf("%s: heads %d/%d of %d, MLA %v; want GQA 96/8 of 128", tt.id, m.NumHeads, m.NumKVHeads, m.HeadDim, m.IsMLA())
		}
		if !m.AttentionBias || m.OProjBias || m.QKNorm != tt.qkNorm || m.PartialRotaryFactor != 0.5 {
			t.Errorf("%s: bias %v, o_proj bias %v, qk norm %v, partial rotary %g", tt.id, m.AttentionBias, m.OProjBias, m.QKNorm, m.PartialRotaryFactor)
		}
		if m.FirstKDenseReplace != tt.dense || m.NumExperts != tt.experts || m.ExpertsPerToken != 8 ||
			m.NumSharedExperts != 1 || m.MoEIntermediateSize != tt.moeInter || m.SharedExpertIntermediateSize != 0 {
			t.Errorf("%s: MoE fields %+v", tt.id, m)
		}
		if !m.ScoreCorrectionBias || !m.RouterFP32 || m.RouterBias || m.TrustRemoteCode || m.Modelled() != nil {
			t.Errorf("%s: router bias %v fp32 %v, trust %v, modelled %v", tt.id, m.ScoreCorrectionBias, m.RouterFP32, m.TrustRemoteCode, m.Modelled())
		}
		if m.NumNextNPredictLayers != 1 {
			t.Errorf("%s: MTP layers %d, want 1 (excluded from the count)", tt.id, m.NumNextNPredictLayers)
		}
		pc := m.ParamCounts()
		if a := (pc.Active(m) - pc.Embedding - pc.LMHead) / 1e9; a < tt.activeB*0.97 || a > tt.activeB*1.03 {
			t.Errorf("%s: active %.2fB, model card %gB", tt.id, a, tt.activeB)
		}
	}
}

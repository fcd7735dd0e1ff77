package perf

import (
	"math"
	"testing"
)

// TestMLALatentProjectionsReplicated: under TP, DeepSeek MLA splits q_b,
// kv_b and o_proj by head but runs the latent down-projections whole on
// every rank (vLLM's DeepseekV2MLAAttention: q_a_proj and
// kv_a_proj_with_mqa are ReplicatedLinear, later one fused_qkv_a_proj with
// disable_tp=True). DeepSeek-V3 at TP 8 (hidden 7,168, q_lora_rank 1,536,
// kv_lora_rank 512, rope 64, 61 layers): each GPU runs 7/8 of
// 7,168 × (1,536 + 576) + 1,536 + 512 parameters a layer more than 1/8 of
// the attention, the memory model's placement (catalog AttentionParams with
// one rank's 16 heads).
func TestMLALatentProjectionsReplicated(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	hw := NewHardware(perfGPU(t, "h200"), 8, 0, 2, 0, 0, 0)
	p := m.ParamCounts()
	base := (p.Attention + p.DenseMLP + p.SharedExperts + p.Router + p.Norms) / 8
	latent := 7168.0*(1536+512+64) + 1536 + 512
	want := base + 61*latent*7/8
	sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: idealEff})
	if got := sm.denseParamsGPU; math.Abs(got/want-1) > 1e-12 {
		t.Errorf("dense params per GPU at TP 8 %.6g, want %.6g (latent projections whole on every rank)", got, want)
	}
	// At TP 1 nothing is split: the whole attention, as before.
	one := NewStepModel(StepSetup{Model: m, HW: hw, TP: 1, PP: 1, DP: 8, EP: true, WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: idealEff})
	if got, want := one.denseParamsGPU, p.Attention+p.DenseMLP+p.SharedExperts+p.Router+p.Norms; math.Abs(got/want-1) > 1e-12 {
		t.Errorf("dense params per GPU at TP 1 %.6g, want %.6g", got, want)
	}
}

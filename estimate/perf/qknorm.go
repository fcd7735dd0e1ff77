package perf

import (
	"math"

	"github.com/vlaunch/vlaunch/catalog"
)

// UseQKNormKernels prices the per-head query and key RMSNorms (Qwen3,
// Qwen3-MoE, GLM-4.5's use_qk_norm: catalog.Model.QKNorm) that vLLM runs
// between the QKV projection and the rotary embedding, and that the
// kernel census (eager.go) lacks: two kernels per attention layer, each
// one kernel gap on the GPU, plus their activation traffic.
//
// What vLLM runs, read at the release tags (vllm-project/vllm v0.15.0,
// vllm/model_executor/models/qwen3.py, Qwen3Attention.forward): q_norm on
// q viewed per head, k_norm on k viewed per head, then rotary_emb — two
// RMSNorm modules besides the layer's two. Under torch.compile (the V1
// default) with custom_ops "none" (vllm/config/vllm.py v0.15.0: Inductor
// backend and a compilation mode other than NONE append "none"),
// Inductor generates the norms as Triton kernels; each norm is a
// reduction over head_dim whose output the rotary kernel reads at a
// rotated index, so the census counts the two norms as written, one
// kernel each. vLLM's fused q/k-norm + RoPE pass
// (PassConfig.enable_qk_norm_rope_fusion, vllm/config/compilation.py) is
// off by default at v0.13.0, v0.15.0, v0.17.0 and v0.19.0 and absent at
// v0.11.0, so no release read fuses them unless asked.
//
// v0.11.0 runs the same forward (qwen3.py) with the same default
// (vllm/model_executor/custom_op.py CustomOp.default_on: off under
// Inductor at the PIECEWISE level), so no release read differs.
//
// vLLM only: SGLang's Qwen3 runs its q/k norms its own way (an aux stream
// under CUDA graphs), not read at a release here. Not for MiniMax-M2's
// all-heads norm (catalog.Model.QKNormAllHeads: a TP-wide reduction of
// its own) nor for DeepSeek-V4 and Llama-Nemotron NAS, whose censuses are
// their own.
//
// Off: measured on (session 42, docs regenerated, all else as on main):
// dense throughput 104 -> 105 of 116 within ±30% (median 16.9% ->
// 16.4%), dense TPOT 111 of 115 (median 9.8% -> 8.4%), the MoE and MoE-EP
// regimes unchanged, holdout 447 -> 448 of 647, calibration 202 of 220 and
// the anchors unchanged; but the aiconfigurator comparison's ratchet
// fails: its dense rows are GPUStack's Qwen3-8B TP 1 closed loops (vLLM
// 0.11.0), already 4-6% slow, which turn 6-8% slow (dense TPOT median
// 4.7% -> 7.1%, throughput 4.0% -> 5.0%). The mechanism is in vLLM's
// forward; what the TP 1 rows say is that something else on their step
// is over-priced (the host split at TP 1, DefaultEfficiency), and the
// norms wait for it.
//
// Not missing, for the record: reshape_and_cache_flash (the KV write).
// The GPUs with measured tables take decode attention's fixed cost from
// aiconfigurator's vLLM collector, whose timed call runs
// impl.do_kv_cache_update before impl.forward (ai-dynamo/aiconfigurator
// 095f58a5, collector/vllm/collect_attn.py, run()), so
// Kernels.AttnDecodeS already holds the write; counting it again would
// charge it twice.
var UseQKNormKernels = false

// qkNormKernelsPerLayer is the q_norm and the k_norm of one attention
// layer (above).
const qkNormKernelsPerLayer = 2

// hasSeparateQKNorm reports whether vLLM runs m's per-head q/k RMSNorms as
// kernels the census lacks (UseQKNormKernels, above).
func hasSeparateQKNorm(m *catalog.Model, s *StepSetup) bool {
	return UseQKNormKernels && !s.SGLang && m.QKNorm && !m.QKNormAllHeads && m.DSV4 == nil && m.NAS == nil
}

// qkNormKernels is the q/k-norm kernels one stage's forward pass runs
// over its attention layers (attnLayers per stage).
func qkNormKernels(m *catalog.Model, s *StepSetup, attnLayers float64) float64 {
	if !hasSeparateQKNorm(m, s) {
		return 0
	}
	return qkNormKernelsPerLayer * attnLayers
}

// qkNormBytesPerToken is the HBM traffic of the q/k norms per token over
// one stage's attention layers on one GPU: each norm reads and writes its
// heads (this rank's query heads, its KV heads, replicated when TP exceeds
// them) of head_dim values in BF16.
func qkNormBytesPerToken(m *catalog.Model, s *StepSetup, attnLayers float64) float64 {
	if !hasSeparateQKNorm(m, s) {
		return 0
	}
	tp := float64(max(1, s.TP))
	heads := float64(m.NumHeads)/tp + math.Max(1, math.Ceil(float64(m.NumKVHeads)/tp))
	return attnLayers * heads * float64(m.HeadDim) * 2 * 2
}

package perf

import "github.com/vlaunch/vlaunch/catalog"

// UseSGLangStep3p5Ops counts, for a Step-3.x model (catalog.Step3p5)
// served by SGLang, the kernels and the TP all-reduce SGLang's own model
// file runs on top of the generic census (eager.go), which counts a GQA
// layer's two norms, QKV, RoPE, attention, output projection and
// all-reduce, and a MoE layer's router, top-k, alignment, two grouped GEMMs,
// activation, sum, all-reduce and a shared expert's three GEMM-side
// kernels. SGLang runs the model's forward as its model file writes it,
// one kernel per tensor operation (no torch.compile by default), inside
// its decode CUDA graph, so each costs the step a kernel gap; a prefill
// step, run eagerly, launches each (eagerLayers).
//
// Read in sgl-project/sglang python/sglang/srt/models/step3p5.py at
// 50e143a6 (the get_global_server_args / LayerCommunicator form of the
// 0.5.x line; which release or PR build carries this exact file was not
// established — the cookbook's run is 'sglang version: 0.5.8', image
// lmsysorg/sglang:dev-pr-18084), Step3p5DecoderLayer.forward,
// Step3p5Attention.forward / forward_prepare_native, Step3p5MoEMLP.
// forward_normal and Step3p5MLP, for every layer:
//   - q_norm and k_norm (GemmaRMSNorm over head_dim): 2 (QKNorm);
//   - the head-wise gate: g_proj (ColumnParallelLinear hidden → heads), then
//     gate_states.unsqueeze(-1).sigmoid() and the product with the attention
//     output: 3 (use_head_wise_attn_gate);
//   - 'hidden_states = residual + hidden_states' before a plain
//     post_attention_layernorm (the census counts the norm only): 1;
//
// and in a MoE layer:
//   - need_fp32_gate: hidden_states.to(torch.float32) and
//     self.gate.weight.t().to(torch.float32) before the float32 matmul that
//     stands for the census's router: 2;
//   - routed_scaling_factor != 1: topk_weights * routed_scaling_factor: 1;
//   - 'hidden_states = moe_output + share_output': 1;
//   - the shared expert is a Step3p5MLP with RowParallelLinear's default
//     reduce_results=True, so its down_proj all-reduces on its own before
//     the routed experts' tensor_model_parallel_all_reduce: one more TP
//     all-reduce (and its kernel) per MoE layer at TP > 1.
//
// Step-3.5-Flash (45 layers, 42 MoE, a shared expert, need_fp32_gate,
// scaling 3.0): 42 × 11 + 3 × 6 = 480 kernels and 42 all-reduces a
// forward pass at TP > 1. A later copy of the file (step3p5.py at
// 01b5f572) keeps the shared expert's output unreduced and all-reduces
// the sum once ('saving one full-TP all-reduce per layer'): the switch
// follows the earlier form, nearer the benchmark's date (2026-02). Not
// counted: the reshape copies of q and k (free at one token), the float32
// cast's bytes (≈0.4 GB a step on Step-3.5-Flash, ≈0.1 ms on H200), the
// swiglu clamps of the two layers whose limits are set, the KV-cache write.
//
// On since 2026-12-06 (issue #28, session sglstep): it adds 1.2–1.5 ms to
// the held-out sglang-cookbook-step35-h200 decode steps (4.31 → 5.55 ms at
// one sequence against 8.11 published), about a third of their missing
// per-step time; no other row serves a Step-3.x model.
var UseSGLangStep3p5Ops = true

// sglangStep3p5Extra is the kernels and TP all-reduces per forward pass
// (all stages) SGLang's Step-3.x model file adds to the census
// (UseSGLangStep3p5Ops); zero for every other model.
func sglangStep3p5Extra(m *catalog.Model, tp int) (kernels, reduces float64) {
	s := m.Step3p5
	if s == nil {
		return 0, 0
	}
	for i := 0; i < m.NumLayers; i++ {
		k := 1.0 // the residual add before post_attention_layernorm
		if m.QKNorm {
			k += 2
		}
		if s.HeadGate {
			k += 3
		}
		if m.IsMoELayer(i) {
			k++ // moe_output + share_output
			if s.FP32Gate {
				k += 2
			}
			if s.RouterScale > 0 && s.RouterScale != 1 {
				k++
			}
			if m.NumSharedExperts > 0 && tp > 1 {
				k++
				reduces++
			}
		}
		kernels += k
	}
	return kernels, reduces
}

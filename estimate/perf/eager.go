package perf

import "github.com/vlaunch/vlaunch/catalog"

// Without CUDA graphs every operation of a layer is dispatched from Python
// and launched one by one, so the host cost of a step grows with the
// operations per layer; with them every kernel still costs the GPU its
// fixed gap (Efficiency.KernelGapS). The counts are a named, rough census
// of vLLM's forward pass (not measured per release):
//   - two RMSNorms per layer;
//   - GQA attention: QKV projection, rotary embedding, attention, output
//     projection, TP all-reduce (5);
//   - MLA attention: q_a, q_a norm, q_b, kv_a, kv_a norm, split, rotary
//     embedding, W_UK, attention, W_UV, output projection, all-reduce (12);
//   - dense MLP: gate/up, activation, down, all-reduce (4);
//   - MoE: router, top-k selection (grouped: 4), token alignment, two grouped
//     GEMMs with the activation between, weighted sum, all-reduce, plus a
//     shared expert's three when the model has one (11 + 3);
//   - FP8 weights: one activation quantization per linear input;
//   - DeepSeek sparse attention (DeepSeek-V3.2, GLM-5): a layer that runs
//     its own lightning indexer (catalog.Model.HasIndexer; an IndexCache
//     layer reuses the indices and runs none) adds dsaIndexerKernels, its
//     wq_b a quantized linear;
//   - LongCat-Flash (catalog/longcat.go): each sub-layer an MLA row and a
//     dense-MLP row, the MoE sub-layers the MoE row too, plus the zero
//     experts' identity kernel;
//   - Llama-Nemotron NAS: a layer runs the norm and the GQA row only with
//     attention, the norm and the dense-MLP row only with an FFN
//     (nasLayerKernels; vLLM's DeciLMDecoderLayer.forward skips a no-op);
//   - DeepSeek-V4: its own census, dsv4LayerKernels (below), in place of
//     every row above (its hyper-connections' mHC blocks,
//     mhcKernelsPerLayer, included). Before it V4 went through the GQA row
//     (it has no kv_lora_rank): 31 kernels a layer, 47.2 now.
//
// eagerOpsRef is the dense GQA layer (2 + 5 + 4 + 0) the constant
// EagerPerLayerS is stated for.
const eagerOpsRef = 11

// dsaIndexerKernels is one DSA indexer's decode kernels besides its wq_b's
// activation quantization, read in Indexer.forward (vllm/model_executor/
// models/deepseek_v2.py at vllm-project/vllm 002d6073, the CUDA path with
// BF16 q: use_fused_indexer_q) and sparse_attn_indexer (vllm/
// model_executor/layers/sparse_attn_indexer.py at 006475fe, decode branch):
// wq_b's GEMM, the BF16 wk_weights_proj GEMM, k_norm (LayerNorm), the
// fused q RoPE + FP8 quant + weight scaling (fused_indexer_q_rope_quant),
// K's RoPE and the concat of its halves (Inductor may fuse these three into
// fewer kernels; counted as written), then inside the op: K's FP8 quant +
// cache insert (indexer_k_quant_and_cache), the fill of the top-k buffer
// with -1, DeepGEMM's fp8_paged_mqa_logits and the top-k (cooperative_topk
// at ≤ 32 rows on SM90+, else persistent_topk / top_k_per_row_decode): 10.
// The scheduling metadata of the logits kernel is built once per step.
const dsaIndexerKernels = 10

// eagerLayers is Σ over decoder layers of ops(layer) / eagerOpsRef.
func eagerLayers(m *catalog.Model, weights string) float64 {
	// W8A8 (FP8 or INT8) adds one activation-quantization kernel per linear.
	fp8 := weights == "fp8" || weights == "int8"
	var sum float64
	for i := 0; i < m.NumLayers; i++ {
		if m.DSV4 != nil {
			sum += dsv4LayerKernels(m, i) / eagerOpsRef
			continue
		}
		if m.NAS != nil {
			sum += nasLayerKernels(m, i, fp8) / eagerOpsRef
			continue
		}
		ops, linears := 2.0, 0.0
		if m.IsMLA() {
			ops, linears = ops+12, linears+5
		} else {
			ops, linears = ops+5, linears+2
		}
		if m.HasIndexer(i) {
			ops, linears = ops+dsaIndexerKernels, linears+1
		}
		if m.IsMoELayer(i) {
			ops, linears = ops+11, linears+2
			if m.NumSharedExperts > 0 {
				ops, linears = ops+3, linears+2
			}
			if m.LongCat != nil {
				// LongCat-Flash: mlps[0] beside the experts (the dense-MLP
				// row) and the zero experts' identity kernel
				// (zero_experts_compute_triton).
				ops, linears = ops+4+1, linears+2
			}
		} else {
			ops, linears = ops+4, linears+2
		}
		if fp8 {
			ops += linears
		}
		sum += ops / eagerOpsRef
	}
	return sum
}

// DeepSeek-V4's decoder layer at decode on CUDA under CUDA graphs (≤ 16
// tokens), kernel by kernel, as vLLM builds it (read at vllm-project/vllm:
// vllm/model_executor/models/deepseek_v4.py 023da1fc, DeepseekV4DecoderLayer.
// _forward_cuda, DeepseekV4MoE, DeepseekV4MLP; vllm/model_executor/layers/
// deepseek_v4_attention.py 0a291a2e, DeepseekV4MultiHeadLatentAttention-
// Wrapper.forward / attention_impl / attn_gemm_parallel_execute /
// _fused_qnorm_rope_kv_insert, DeepseekV4MLAAttention._forward_decode,
// DeepseekV4Indexer.forward; vllm/model_executor/layers/
// deepseek_compressor.py 0de10a27, DeepseekCompressor.forward;
// vllm/model_executor/layers/sparse_attn_indexer.py 006475fe; vllm/
// model_executor/layers/fused_moe/router/norm_gate_linear.py 80413b1c and
// fused_topk_bias_router.py 0263839f; the OpenAI-Triton MXFP4 experts,
// OAITritonExperts.apply and make_routing_data in vllm/model_executor/
// layers/fused_moe/gpt_oss_triton_kernels_moe.py, read in a stored copy
// the index names no repository or commit for; deepseek-ai/FlashMLA csrc/api/sparse_decode.h 4855c772,
// sparse_attn_decode_interface). Which vLLM release each commit is in was
// not read: the census stands for the line the published V4 runs use, not
// for one release. Every linear but the compressors' and the indexer's
// weights_proj is block FP8 (DeepseekV4FP8Config), so each FP8 linear is an
// activation quantization plus a GEMM. The census counts the kernels
// launched, not the critical path: at ≤ VLLM_MULTI_STREAM_GEMM_TOKEN_
// THRESHOLD tokens the compressor's and the indexer's input GEMMs run on aux
// streams beside fused_wqa_wkv, and a C4A layer's indexer beside wq_b, the
// cache insert and the compressor, so some of their fixed costs overlap
// (dsv4HiddenKernels, below).
const (
	// dsv4AttnKernels is every layer's attention: attn_norm (1); inside the
	// deepseek_v4_attention op fused_wqa_wkv (quant + GEMM: 2),
	// fused_q_kv_rmsnorm (1), wq_b (2), the fused q head norm + RoPE and
	// K RoPE + FP8 quant + sliding-window cache insert (1), the pad of the
	// local heads to FlashMLA's 64 or 128 (1: every TP > 1 deployment of
	// Flash and Pro), FlashMLA's sparse decode — its split-KV kernel and
	// its combine (2); then fused_inv_rope_fp8_quant (1), the grouped
	// wo_a projection (DeepGEMM fp8_einsum; its kernel count not readable,
	// counted 1) and wo_b (quant + GEMM + TP all-reduce: 3). 15 in all.
	dsv4AttnKernels = 15
	// dsv4CompressorKernels is a compressed layer's (ratio 4 or 128) KV
	// compressor: its fused_wkv_wgate GEMM (torch.mm to float32, on an aux
	// stream), _save_partial_states_kernel and the fused compress + RMSNorm
	// + RoPE + FP8 quant + cache write (3).
	dsv4CompressorKernels = 3
	// dsv4C4AKernels is what a C4A layer (ratio 4) adds beyond its
	// compressor: the translation of the indexer's local top-k into cache
	// slots (compute_global_topk_indices_and_lens: 1; C128A layers take
	// theirs from the step's metadata), and the indexer — weights_proj
	// (BF16 GEMM, aux stream: 1), its compressor's GEMM (aux stream: 1),
	// wq_b (quant + GEMM: 2), its compressor's two kernels (2),
	// fused_indexer_q_rope_quant (1) and sparse_attn_indexer's decode
	// branch with the K insert skipped: the top-k buffer's fill,
	// fp8_fp4_paged_mqa_logits, the top-k (3). 11 in all.
	dsv4C4AKernels = 11
	// dsv4MoEKernels is every layer's MoE bar the router GEMM: the top-k
	// (topk_softplus_sqrt_fast or topk_hash_softplus_sqrt: one kernel for
	// the bias and the hash-routed layers alike: 1); the routed experts as
	// Hopper runs MXFP4 (vllm.MXFP4MoEBackend: OpenAI's triton_kernels) —
	// the EP expert map's gather, the int16 / BF16 casts of the ids and
	// weights, the bitmatrix's zero fill and pack_bitmatrix, the -1 mask
	// (compare, where), routing_from_bitmatrix (triton_kernels; count not
	// read, 1) and the two matmul_ogs (each counted 1): 10 (the modular
	// OAITritonExperts path; aiconfigurator's 0.24.0 tables name a
	// monolithic variant, whose launches were not read); the shared
	// expert (gate_up quant + GEMM, SiluAndMulWithClamp, down quant + GEMM:
	// 5); the shared + routed sum and the TP all-reduce (2). 18 in all.
	// Blackwell's FlashInfer MoE launches fewer; not counted separately.
	dsv4MoEKernels = 18
)

// dsv4LayerKernels is DeepSeek-V4's decoder layer i's kernels (above): the
// attention, a compressor in compressed layers, the C4A indexer, the MoE
// with its ffn_norm + router (NormGateLinear: one fused
// dsv4_norm_router_gemm at ≤ 16 tokens for V4-Pro's 7,168 × 384 shape, an
// RMSNorm and a GEMM otherwise) and the mHC blocks.
func dsv4LayerKernels(m *catalog.Model, i int) float64 {
	k := dsv4AttnKernels + dsv4MoEKernels + 2 + mhcKernelsPerLayer(m)
	if m.HiddenSize == 7168 && m.NumExperts == 384 {
		k-- // DSV4_PRO_HIDDEN_SIZE, DSV4_PRO_NUM_EXPERTS
	}
	switch m.DSV4.Ratio(i) {
	case 4:
		k += dsv4CompressorKernels + dsv4C4AKernels
	case 128:
		k += dsv4CompressorKernels
	}
	return k
}

// DeepSeek-V4's kernels off the critical path. vLLM on CUDA forks two
// groups of the attention's kernels onto aux streams (vllm/
// facts_dsv4_streams.go, read at vllm-project/vllm 0a291a2e deepseek_v4_
// attention.py attn_gemm_parallel_execute and attention_impl), each fork
// joined by an event wait before the main stream goes on. Between a fork
// and its join the critical path runs the longer of the main stream's
// kernels and the longest aux stream's (each kernel one gap), so of the
// kernels the census above counts, main + Σ aux − max(main, longest aux)
// cost the step no gap (forkHidden):
//   - the input-GEMM fork (≤ vllm.DSV4MultiStreamGEMMTokenThreshold
//     tokens): main fused_wqa_wkv (quant + GEMM: 2) beside one GEMM per aux
//     stream — the compressor's (C128A, C4A), the indexer's weights_proj
//     and its compressor's (C4A): every aux kernel hidden, 1 and 3;
//   - the post-GEMM fork (maybe_execute_in_parallel, no threshold): C128A:
//     main wq_b (2) + the fused q norm / RoPE / cache insert (1) beside the
//     compressor's remaining two kernels: 2 hidden; C4A: main wq_b, the
//     insert and the compressor's two (5) beside the whole indexer bar its
//     input GEMMs (DeepseekV4Indexer.forward: wq_b 2, its compressor's 2,
//     fused_indexer_q_rope_quant 1, sparse_attn_indexer's 3: 8), which
//     outlasts the main stream by 3: 5 hidden.
//
// Critical path per layer, under the threshold: SWA 39, C128A 39 (42 − 3),
// C4A 45 (53 − 8); above it 39, 40, 48. The host launches all of them
// (eagerLayers is unchanged).
const (
	dsv4WqaWkvKernels  = 2                         // fused_wqa_wkv: quant + GEMM
	dsv4WqbKVInsert    = 3                         // wq_b (quant + GEMM) + fused q norm/RoPE/KV insert
	dsv4CompressorTail = dsv4CompressorKernels - 1 // a compressor after its GEMM
	// dsv4IndexerTail is the C4A indexer's kernels after its two input
	// GEMMs and before compute_global_topk_indices_and_lens (dsv4C4AKernels
	// less those three).
	dsv4IndexerTail = dsv4C4AKernels - 3
)

// forkHidden is the kernels of a fork that cost the critical path no gap:
// main kernels on the main stream, aux[j] on aux stream j, all joined
// before the main stream goes on.
func forkHidden(main float64, aux ...float64) float64 {
	sum, longest := main, main
	for _, a := range aux {
		sum += a
		longest = max(longest, a)
	}
	return sum - longest
}

// dsv4HiddenKernels is DeepSeek-V4 layer i's kernels the aux streams take
// off the critical path (above): gemmFork in the input-GEMM fork, postFork
// in the post-GEMM one. An SWA-only layer forks nothing.
func dsv4HiddenKernels(m *catalog.Model, i int) (gemmFork, postFork float64) {
	switch m.DSV4.Ratio(i) {
	case 4:
		return forkHidden(dsv4WqaWkvKernels, 1, 1, 1),
			forkHidden(dsv4WqbKVInsert+dsv4CompressorTail, dsv4IndexerTail)
	case 128:
		return forkHidden(dsv4WqaWkvKernels, 1), forkHidden(dsv4WqbKVInsert, dsv4CompressorTail)
	}
	return 0, 0
}

// dsv4StageHiddenKernels is dsv4HiddenKernels summed over the model's
// decoder layers (zero for a model other than DeepSeek-V4).
func dsv4StageHiddenKernels(m *catalog.Model) (gemmFork, postFork float64) {
	if m.DSV4 == nil {
		return 0, 0
	}
	for i := 0; i < m.NumLayers; i++ {
		g, p := dsv4HiddenKernels(m, i)
		gemmFork, postFork = gemmFork+g, postFork+p
	}
	return gemmFork, postFork
}

// kernelsOutsideLayers is the kernels a forward pass runs outside its
// decoder layers: embedding, final norm, LM head and the logits' gather,
// counted on every stage (a named rough count; the sampler runs on the
// host's side of the step, StepOverheadS).
const kernelsOutsideLayers = 4

// stageKernels is the kernels one stage's forward pass runs: the census
// above (one kernel per operation) over its layers, plus the pass's
// kernels outside them.
func stageKernels(eagerLayers float64) float64 {
	return eagerLayers*eagerOpsRef + kernelsOutsideLayers
}

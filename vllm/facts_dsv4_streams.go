package vllm

// DeepSeek-V4's attention runs some of its kernels on auxiliary CUDA
// streams beside the main stream's (issue #28; read 2026-12-06). Read at
// vllm-project/vllm 0a291a2e (the commit eager.go's census cites; a later
// copy the index names no repository for has the same two forks) vllm/model_executor/layers/
// deepseek_v4_attention.py, DeepseekV4MultiHeadLatentAttentionWrapper:
//
//   - attn_gemm_parallel_execute: execute_in_parallel forks at
//     ln_events[0] (recorded on the main stream after the attention's
//     input norm); fused_wqa_wkv (FP8: activation quant + GEMM) runs on the
//     main stream, the compressor's fused_wkv_wgate GEMM (torch.mm to
//     float32) on aux stream 0, the indexer's weights_proj (BF16) on aux 1
//     and the indexer compressor's GEMM on aux 2; the main stream then waits
//     on every aux's done event (ln_events[1..3]: "GEMM fully joins before
//     post-GEMM starts"). Enabled when hidden_states.shape[0] ≤
//     VLLM_MULTI_STREAM_GEMM_TOKEN_THRESHOLD.
//   - attention_impl: in a C4A layer (an indexer) maybe_execute_in_parallel
//     runs wq_b, _fused_qnorm_rope_kv_insert and the compressor on the main
//     stream and the whole indexer (DeepseekV4Indexer.forward, in sequence:
//     wq_b, its compressor, fused_indexer_q_rope_quant, the
//     SparseAttnIndexer op) on aux stream 0; in a C128A layer wq_b and the insert on the main stream
//     and the compressor on aux 0; an SWA-only layer forks nothing. The main
//     stream waits on ln_events[1] before FlashMLA (maybe_execute_in_
//     parallel at vllm-project/vllm 0507815b vllm/utils/multi_stream_utils.
//     py: event0.record(); fn0(); on aux: event0.wait(), fn1(),
//     event1.record(); then event1.wait()). This fork has no token
//     threshold: it runs whenever aux_stream_list is set.
//   - aux_stream_list is None on ROCm ("Will be None on ROCm for now"):
//     every kernel then runs on the one stream.
//
// Which release first carries the streams was not read (PR #41526, named
// by vllm/envs.py for the threshold's default, was not opened); DeepSeek-V4
// itself arrives in the release facts_architectures.go names.

// DSV4MultiStreamGEMMTokenThreshold is VLLM_MULTI_STREAM_GEMM_TOKEN_
// THRESHOLD's default: DeepSeek-V4's input GEMMs run on aux streams at a
// forward of at most this many tokens per rank (vllm/envs.py in a stored
// copy the index names no repository or commit for: int(os.getenv(...,
// "1024")), "Set to 0 to disable the multi-stream path entirely", the
// default "See #PR 41526"; the vllm-project/vllm envs.py the index holds,
// 001f69f8, predates the variable). Its first release was not read.
const DSV4MultiStreamGEMMTokenThreshold = 1024

// DSV4AuxStreams reports whether vLLM gives DeepSeek-V4's attention its
// aux CUDA streams on a GPU of the vendor (catalog.GPU.Vendor): CUDA only,
// none on ROCm (above).
func DSV4AuxStreams(vendor string) bool { return vendor == "nvidia" }

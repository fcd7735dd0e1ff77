package vllm

// MaxCUDAGraphCaptureSize is the ceiling of vLLM's default largest
// captured batch, in tokens per engine step: a step with more tokens on a
// rank runs eagerly.
//
// Source: VllmConfig._set_cudagraph_sizes (vllm/config/vllm.py, stored
// copies of two versions, the newer multiplying by the speculative decode
// width): max_cudagraph_capture_size, when not given, is
// min(max_num_seqs × decode_query_len × 2, 512), then capped by
// max_num_batched_tokens; a batch above it runs without a graph
// (cudagraph_dispatcher returns NONE); vllm-facts.md §4.4. Unverified:
// releases before --max-cudagraph-capture-size (0.11.1) sized graphs
// through cuda_graph_sizes, with the same ceiling as far as is known; the
// V0 engine (before 0.8) captured at most 256.
const MaxCUDAGraphCaptureSize = 512

// VocabPaddingSize is the multiple vLLM pads the embedding and LM-head
// vocabulary to before VocabParallelEmbedding / ParallelLMHead split it
// over TP ranks.
//
// Source: DEFAULT_VOCAB_PADDING_SIZE = 64 and pad_vocab_size in
// vllm/model_executor/layers/vocab_parallel_embedding.py (stored copies of
// several versions, unchanged).
const VocabPaddingSize = 64

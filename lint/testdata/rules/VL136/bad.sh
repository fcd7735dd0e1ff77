# lint-version: 0.20.0
# vLLM 0.20.0 passes --max-num-batched-tokens to DeepEP as
# num_max_dispatch_tokens_per_rank (PR #39107), and DeepEP (73b6ea4,
# deep_ep/buffer.py:601) asserts NVSHMEM_QP_DEPTH (1024 unset) >= 2*(tokens+1).
vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --enable-expert-parallel --all2all-backend deepep_low_latency --max-num-batched-tokens 2048 # want VL136

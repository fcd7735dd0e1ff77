# lint-version: 0.19.1
# Before PR #39107 the DeepEP capacity is VLLM_MOE_DP_CHUNK_SIZE (256 by
# default), not --max-num-batched-tokens: a larger batch runs in chunks.
vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --enable-expert-parallel --all2all-backend deepep_low_latency --max-num-batched-tokens 2048

# lint-version: 0.24.0
# The backend picked by the flag at 512 tokens: one above the 511 that a
# queue depth of 1024 holds (DeepEP d4f41e4e93, deep_ep/buffers/legacy.py:609).
vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --enable-expert-parallel --all2all-backend deepep_low_latency --max-num-batched-tokens 512 # want VL136

# lint-version: 0.5.3
# v0.5.3 vllm/config.py:270-277 raises the same ValueError (64 heads, TP 6).
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 6 # want VL139

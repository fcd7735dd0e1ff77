# lint-version: 0.12.0
# Before the check vLLM starts and drops hybrid LB (external LB from --data-parallel-rank): a warning, not an error.
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 -dpl 1 --data-parallel-address 10.0.0.1 --enable-expert-parallel --data-parallel-hybrid-lb --data-parallel-rank 0 # want VL122

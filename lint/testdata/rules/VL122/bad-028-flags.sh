# lint-version: 0.28.0
# vLLM 0.28.0's EngineArgs refuses the two flags together (v0.28.0 tag, vllm/engine/arg_utils.py, PR #49124).
vllm serve deepseek-ai/DeepSeek-V3 -dp 4 -dpl 2 --data-parallel-start-rank 2 --data-parallel-address 10.0.0.1 --enable-expert-parallel --data-parallel-hybrid-lb --data-parallel-external-lb # want VL122

vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel true # want VL105
# lint-version: 0.8.5

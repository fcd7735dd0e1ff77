vllm serve deepseek-ai/DeepSeek-V3 -dp 8 -dpl 16 --enable-expert-parallel
# lint-version: 0.8.3

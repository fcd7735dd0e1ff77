vllm serve deepseek-ai/DeepSeek-V3 -dp 8 -dpl 8 --enable-expert-parallel

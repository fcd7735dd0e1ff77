vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --data-parallel-rank 0 --data-parallel-address 10.0.0.1

vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --enable-dbo 
# lint-version: 0.10.2
# want:1 VL102

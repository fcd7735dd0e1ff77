vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-eplb 
# lint-version: 0.9.1
# want:1 VL102

vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-eplb # want VL121

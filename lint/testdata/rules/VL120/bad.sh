vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --enable-dbo # want VL120

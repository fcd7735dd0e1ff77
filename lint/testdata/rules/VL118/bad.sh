vllm serve deepseek-ai/DeepSeek-V3 -dp 8 -dpl 16 --enable-expert-parallel # want VL118 VL111

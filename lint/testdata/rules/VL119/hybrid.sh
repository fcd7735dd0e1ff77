vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --enable-expert-parallel --data-parallel-hybrid-lb --data-parallel-address 10.0.0.1 # want VL119

vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --all2all-backend deepep_low_latency # want VL109

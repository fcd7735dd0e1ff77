# lint-version: 0.12.0
VLLM_ALL2ALL_BACKEND=deepep_low_latency vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel # want VL126

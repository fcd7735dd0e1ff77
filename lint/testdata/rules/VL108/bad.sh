# lint-version: 0.10.1
export VLLM_ALL2ALL_BACKEND=deepep # want VL108
export VLLM_PORT=tcp://10.0.0.5:8000 # want VL108
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel

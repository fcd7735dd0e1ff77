# lint-version: 0.10.1
export VLLM_ALL2ALL_BACKEND=deepep_low_latency
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel

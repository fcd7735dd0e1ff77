# lint-version: 0.10.1
export VLLM_ALL2ALL_BACKEND=deepep_high_throughput
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel

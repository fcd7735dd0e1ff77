# vlaunch:vllm-version=0.11.0 written by vlaunch generate
# vlaunch:vllm-version=0.11.0
export VLLM_ALL2ALL_BACKEND=deepep_low_latency
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel

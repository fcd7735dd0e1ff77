# vlaunch:vllm-version=0.11.0
# Written for 0.11.0, where the variable still exists; no --vllm-version needed.
export VLLM_ALL2ALL_BACKEND=deepep_low_latency
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel

# vlaunch:vllm-version=0.11.0
# vlaunch:vllm-version=0.16.0 # want VL007
# The first directive is in force: 0.11.0 still has the variable.
export VLLM_ALL2ALL_BACKEND=deepep_low_latency
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel

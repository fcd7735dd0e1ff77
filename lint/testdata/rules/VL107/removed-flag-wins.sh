# lint-version: 0.16.0
# vlaunch:vllm-version=0.11.0
# --vllm-version overrides the directive.
export VLLM_ALL2ALL_BACKEND=deepep_low_latency # want VL107
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel

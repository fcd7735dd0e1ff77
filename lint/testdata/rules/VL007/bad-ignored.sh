# vlaunch:vllm-version=0.11.0-final # want VL007
# A malformed directive is ignored, so the newest release applies and VL107 fires.
export VLLM_ALL2ALL_BACKEND=deepep_low_latency # want VL107
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel

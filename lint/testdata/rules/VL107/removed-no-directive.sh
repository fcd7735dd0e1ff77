# The same script without a directive is linted for the newest release.
export VLLM_ALL2ALL_BACKEND=deepep_low_latency # want VL107
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel

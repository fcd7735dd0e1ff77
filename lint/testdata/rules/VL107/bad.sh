# lint-version: 0.10.1
export VLLM_ALL2ALL_BACKNED=deepep_low_latency # want VL107
vllm serve meta-llama/Llama-3.1-8B-Instruct

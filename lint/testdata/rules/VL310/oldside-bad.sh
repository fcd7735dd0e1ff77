# A per-command assignment written with export: nothing starts.
export VLLM_ALL2ALL_BACKEND=deepep_low_latency vllm serve deepseek-ai/DeepSeek-V2-Lite --data-parallel-size 2 # want VL310
export NCCL_SOCKET_IFNAME=eth0 python3 -m vllm.entrypoints.openai.api_server --model m # want VL310
# lint-version: 0.8.5

# lint-version: 0.12.0
export NCCL_P2P_DISABLE=1 # want VL131:info
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8

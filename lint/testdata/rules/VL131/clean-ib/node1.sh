#!/bin/bash
# lint-version: 0.12.0
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
export NCCL_IB_HCA=mlx5_0
vllm serve deepseek-ai/DeepSeek-V3-0324 --tensor-parallel-size 1 --enable-expert-parallel \
  --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 \
  --data-parallel-rpc-port 13345 --all2all-backend deepep_low_latency --data-parallel-start-rank 8 --headless

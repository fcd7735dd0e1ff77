#!/bin/bash
export GLOO_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME=eth0
export VLLM_HOST_IP=10.0.0.1
vllm serve deepseek-ai/DeepSeek-V3-0324 --tensor-parallel-size 1 --enable-expert-parallel \
  --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 \
  --data-parallel-rpc-port 13345
# lint-version: 0.9.0

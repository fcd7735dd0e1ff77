#!/bin/bash
# Node 0 of a two-node DeepSeek-V3 deployment (DP=16, EP): the API server.
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
vllm serve deepseek-ai/DeepSeek-V3-0324 --tensor-parallel-size 1 --enable-expert-parallel \
  --data-parallel-size 16 --data-parallel-size-local 8 \
  --data-parallel-address 192.168.1.100 --data-parallel-rpc-port 13345 \
  --api-server-count=8 --all2all-backend deepep_low_latency

#!/bin/bash
# lint-version: 0.11.0
export GLOO_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME=eth0
export VLLM_HOST_IP=10.0.0.1 # want VL210
vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel --data-parallel-size 2 --data-parallel-rank 1 \
  --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port 8000

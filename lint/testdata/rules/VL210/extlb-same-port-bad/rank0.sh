#!/bin/bash
# Two external-LB ranks with the same VLLM_HOST_IP and the same --port: one
# node cannot hold both servers, so the second script runs on another node
# that copied the first one's address: VL210 still.
# lint-version: 0.11.0
export GLOO_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME=eth0
export VLLM_HOST_IP=10.0.0.1
vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel --data-parallel-size 2 --data-parallel-rank 0 \
  --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port 8000

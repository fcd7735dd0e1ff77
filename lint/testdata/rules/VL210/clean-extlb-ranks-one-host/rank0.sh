#!/bin/bash
# External DP load balancing written by hand, no vlaunch directives: two ranks
# on one node (vLLM's docs/serving/data_parallel_deployment.md, "External Load
# Balancing", v0.11.0), each on its own GPU and HTTP port. They share the
# node's VLLM_HOST_IP by right: no VL210.
# lint-version: 0.11.0
export GLOO_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME=eth0
export VLLM_HOST_IP=10.0.0.1
export CUDA_VISIBLE_DEVICES=0
vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel --data-parallel-size 2 --data-parallel-rank 0 \
  --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port 8000

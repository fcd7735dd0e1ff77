#!/bin/bash
# A launcher inserted the multi-node flags between `vllm serve` and the
# model, and node 1 forgot --headless.
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
ssh 10.0.0.1 "vllm serve --nnodes 2 --node-rank 0 --master-addr 10.0.0.1 Qwen/Qwen3-235B-A22B -tp 8 -pp 2"
ssh 10.0.0.2 "vllm serve Qwen/Qwen3-235B-A22B -tp 8 -pp 2 --nnodes 2 --node-rank 1 --master-addr 10.0.0.1"
# want:5 VL128
# want:6 VL213

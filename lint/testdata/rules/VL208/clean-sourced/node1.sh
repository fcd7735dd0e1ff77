#!/bin/bash
export GLOO_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME=eth0
vllm serve deepseek-ai/DeepSeek-V3-0324 -dp 16 -dpl 8 --enable-expert-parallel --data-parallel-address 10.0.0.1 --headless --data-parallel-start-rank 8

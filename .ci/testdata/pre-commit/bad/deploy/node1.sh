#!/bin/bash
# Node 1 with a wrong start rank: ranks 0..7 are node 0's, so this must be 8.
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
vllm serve deepseek-ai/DeepSeek-V3-0324 --tensor-parallel-size 1 --enable-expert-parallel \
  --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-start-rank 16 --headless \
  --data-parallel-address 192.168.1.100 --data-parallel-rpc-port 13345 \
  --all2all-backend deepep_low_latency

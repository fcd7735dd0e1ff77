#!/bin/bash
export GLOO_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME=eth0
vllm serve deepseek-ai/DeepSeek-V3-0324 --tensor-parallel-size 1 --enable-expert-parallel \
  --data-parallel-size 24 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 \
  --data-parallel-rpc-port 13345 --api-server-count 8 --all2all-backend deepep_low_latency

# lint-version: 0.8.2
# 0.8.2, not 0.8.3: --data-parallel-size is in arg_utils.py at the v0.8.3 tag (flagspans45).
# want:5 VL102
# want:5 VL102
# want:5 VL102
# want:6 VL102
# want:6 VL102
# want:6 VL102

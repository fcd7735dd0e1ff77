#!/bin/bash
# DeepSeek-V3 on 4 nodes x 8 GPUs (EP=32, DP attention), launched from one
# host over ssh. Node 0 is the primary; nodes 1-3 are headless with start
# ranks 8, 16 and 24.
set -euo pipefail
MODEL=deepseek-ai/DeepSeek-V3-0324
NODES=(10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4)
HEAD=${NODES[0]}
LOCAL=8
COMMON="--tensor-parallel-size 1 --enable-expert-parallel \
  --data-parallel-size 32 --data-parallel-size-local $LOCAL \
  --data-parallel-address $HEAD --data-parallel-rpc-port 13345 \
  --all2all-backend deepep_low_latency --max-model-len 32768"
ENVS="GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0"

for i in 0 1 2 3; do
  if [ "$i" -eq 0 ]; then
    ROLE="--api-server-count 8 --port 8000"
  else
    ROLE="--headless --data-parallel-start-rank $((i * LOCAL))"
  fi
  ssh "${NODES[$i]}" "env $ENVS VLLM_HOST_IP=${NODES[$i]} nohup vllm serve $MODEL $COMMON $ROLE > vllm.log 2>&1 &"
done

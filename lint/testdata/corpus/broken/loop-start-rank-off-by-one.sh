#!/bin/bash
# Per-node commands generated in a loop; the start rank is off by one and
# one node is missing from the host list, so the local sizes sum to 24 of 32.
HOSTS="10.0.0.1 10.0.0.2 10.0.0.3"
i=0
for h in $HOSTS; do
  if [ $i -eq 0 ]; then
    EXTRA="--api-server-count 8"
  else
    EXTRA="--headless --data-parallel-start-rank $((i * 8 + 1))"
  fi
  ssh $h "export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0; vllm serve deepseek-ai/DeepSeek-V3-0324 -tp 1 --enable-expert-parallel -dp 32 -dpl 8 --data-parallel-address 10.0.0.1 $EXTRA &"
  i=$((i + 1))
done
# want:10 VL204 VL204
# want:12 VL203

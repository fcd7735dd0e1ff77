#!/bin/sh
# DP 4 split over two hosts, two ranks per host. This host (192.0.2.60)
# owns ranks 0 and 1 and serves the API.
CKPT=${CKPT:-Qwen/Qwen3-30B-A3B-FP8}
vllm serve $CKPT --data-parallel-size 4 --data-parallel-size-local 2 \
  --data-parallel-address 192.0.2.60 --data-parallel-rpc-port 15610

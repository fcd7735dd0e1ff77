#!/bin/sh
# Second host: ranks 2 and 3, no API server.
CKPT=${CKPT:-Qwen/Qwen3-30B-A3B-FP8}
vllm serve $CKPT --headless --data-parallel-size 4 --data-parallel-size-local 2 \
  --data-parallel-start-rank 2 \
  --data-parallel-address 192.0.2.60 --data-parallel-rpc-port 15610

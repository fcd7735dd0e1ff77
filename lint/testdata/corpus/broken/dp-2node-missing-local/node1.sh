#!/bin/sh
# Second host without --data-parallel-size-local: it tries to start all 4 ranks.
CKPT=${CKPT:-Qwen/Qwen3-30B-A3B-FP8}
vllm serve $CKPT --headless --data-parallel-size 4 \
  --data-parallel-start-rank 2 \
  --data-parallel-address 192.0.2.60 --data-parallel-rpc-port 15610
# want-3 VL119

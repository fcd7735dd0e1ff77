#!/bin/sh
# Node 1 forgot --data-parallel-size-local: it tries to start all 4 ranks.
MODEL=${MODEL:-Qwen/Qwen3-30B-A3B}
vllm serve $MODEL --headless --data-parallel-size 4 \
                  --data-parallel-start-rank 2 \
                  --data-parallel-address 10.99.48.128 --data-parallel-rpc-port 13345
# want-3 VL119

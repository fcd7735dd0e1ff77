#!/bin/sh
# Node 1 runs ranks 2-3 headless.
MODEL=${MODEL:-Qwen/Qwen3-30B-A3B}
vllm serve $MODEL --headless --data-parallel-size 4 --data-parallel-size-local 2 \
                  --data-parallel-start-rank 2 \
                  --data-parallel-address 10.99.48.128 --data-parallel-rpc-port 13345

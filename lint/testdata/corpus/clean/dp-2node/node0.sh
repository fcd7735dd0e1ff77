#!/bin/sh
# Data-parallel deployment guide: DP=4 over two nodes, two ranks each.
# Node 0 (10.99.48.128) runs ranks 0-1 and the API server.
MODEL=${MODEL:-Qwen/Qwen3-30B-A3B}
vllm serve $MODEL --data-parallel-size 4 --data-parallel-size-local 2 \
                  --data-parallel-address 10.99.48.128 --data-parallel-rpc-port 13345

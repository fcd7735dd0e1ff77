#!/bin/bash
# Pattern from an RFC example: a comment after the continuation backslash
# ends the command, so the rest of the flags never reach vLLM.
MODEL=Qwen/Qwen3-30B-A3B
vllm serve $MODEL --data-parallel-size 4 \
                  --data-parallel-size-local 2 \ # run two dp ranks on node 1
                  --data-parallel-address 10.99.48.128 \
                  --data-parallel-rpc-port 13345
# want:6 VL301
# want:7 VL303

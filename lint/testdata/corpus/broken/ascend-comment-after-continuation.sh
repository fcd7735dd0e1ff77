#!/bin/bash
# A comment after the continuation backslash ends the command, so the rest
# of the flags never reach vLLM.
CKPT=Qwen/Qwen3-30B-A3B-FP8
vllm serve $CKPT --data-parallel-size 4 \
  --data-parallel-size-local 2 \ # ranks 0 and 1 live here
  --data-parallel-address 192.0.2.60 \
  --data-parallel-rpc-port 15610
# want:6 VL301
# want:7 VL303

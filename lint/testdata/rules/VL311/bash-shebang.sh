#!/bin/bash
# bash runs the script: `==` and [[ ]] are fine.
if [ "$NODE_RANK" == 0 ]; then
  vllm serve Qwen/Qwen3-8B --port 8000
elif [[ "$NODE_RANK" == 1 ]]; then
  vllm serve Qwen/Qwen3-8B --port 8001
fi

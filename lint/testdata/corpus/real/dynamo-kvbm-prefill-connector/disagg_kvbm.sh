#!/bin/bash
set -e
trap 'echo Cleaning up...; kill 0' EXIT

python -m dynamo.frontend --router-mode kv --http-port=8000 &

CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --enforce-eager &

sleep 20

DYN_KVBM_CPU_CACHE_GB=4 \
CUDA_VISIBLE_DEVICES=1 \
  python3 -m dynamo.vllm \
    --model Qwen/Qwen3-0.6B \
    --is-prefill-worker \
    --connector kvbm nixl \
    --enforce-eager

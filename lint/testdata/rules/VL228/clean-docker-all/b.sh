#!/usr/bin/env bash
# vlaunch:host=node0
set -euo pipefail
exec docker run --rm --name m-decode --gpus all --network host --pid host --ipc host \
  -e 'CUDA_VISIBLE_DEVICES=4,5,6,7' \
  vllm/vllm-openai:v0.10.2 \
  --model meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 4 --port 8001

#!/usr/bin/env bash
# vlaunch:host=node0
# Both pools of a P/D deployment on one node, as vlaunch writes them on docker: every GPU visible (--gpus all), each container's picked by CUDA_VISIBLE_DEVICES.
set -euo pipefail
exec docker run --rm --name m-prefill --gpus all --network host --pid host --ipc host \
  -e 'CUDA_VISIBLE_DEVICES=0,1,2,3' \
  vllm/vllm-openai:v0.10.2 \
  --model meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 4 --port 8000

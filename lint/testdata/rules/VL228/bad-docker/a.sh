#!/usr/bin/env bash
# vlaunch:host=node0
set -euo pipefail
exec docker run --rm --name m-a.sh --gpus '"device=0,1"' --network host --ipc host \
  vllm/vllm-openai:v0.10.2 \
  --model meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 --port 8000

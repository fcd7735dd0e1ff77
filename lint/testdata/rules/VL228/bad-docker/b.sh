#!/usr/bin/env bash
# vlaunch:host=node0
set -euo pipefail
exec docker run --rm --name m-b.sh --gpus '"device=1,2"' --network host --ipc host \
  vllm/vllm-openai:v0.10.2 \
  --model meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 --port 8001
# want-2 VL228

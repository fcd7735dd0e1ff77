#!/usr/bin/env bash
# vlaunch:host=node0
set -euo pipefail
export CUDA_VISIBLE_DEVICES=3,4
exec vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 --port 8002 # want VL228

#!/usr/bin/env bash
# vlaunch:host=node1
set -euo pipefail
export VLLM_HOST_IP=10.0.0.2
export CUDA_VISIBLE_DEVICES=0
exec vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel --data-parallel-size 2 --data-parallel-rank 1 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port 8000 # want VL234

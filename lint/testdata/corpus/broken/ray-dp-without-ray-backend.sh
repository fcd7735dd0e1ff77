#!/usr/bin/env bash
# A Ray cluster is started, but data parallel uses the default mp backend:
# both DP ranks (2 x TP 8) start on the head node, which has 8 GPUs.
set -euo pipefail
role="${NODE_ROLE:-head}"
if [ "$role" == "head" ]; then
    ray start --head --port=6379 --num-gpus=8
    nohup python -m vllm.entrypoints.openai.api_server \
        --model Qwen/Qwen3-235B-A22B \
        --tensor-parallel-size 8 \
        --data-parallel-size 2 \
        --max-model-len 32768 > vllm.log 2>&1 &
else
    ray start --address="${HEAD_IP}:6379" --num-gpus=8
fi
# want:8 VL111

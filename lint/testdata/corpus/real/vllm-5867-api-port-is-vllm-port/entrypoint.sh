#!/bin/bash
export VLLM_PORT=9000
NUM_GPUS=${NUM_GPUS:-4}
launch_model=${MODEL_ID:-mistralai/Mistral-7B-Instruct-v0.2}
CMD="python -u -m vllm.entrypoints.openai.api_server \
        --host 0.0.0.0 \
        --port $VLLM_PORT \
        --model $launch_model \
        --tensor-parallel-size $NUM_GPUS \
        --download-dir /data"
eval $CMD

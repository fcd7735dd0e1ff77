#!/bin/bash
# One engine over three 4-GPU nodes (TP 4 x PP 3) under apptainer.
# Run on every node: ./serve-node.sh <head-ip> <rank>
set -eu
HEAD_IP="$1"
RANK="$2"

FOLLOWER=""
if [ "$RANK" -ne 0 ]; then
  FOLLOWER="--headless"
fi

apptainer exec --nv /images/vllm.sif \
  vllm serve /models/deepseek-v3.1 \
    --port 8000 \
    --tensor-parallel-size 4 \
    --dcp 4 \
    --pipeline-parallel-size 3 \
    --nnodes 3 \
    --node-rank "$RANK" \
    --master-addr "$HEAD_IP" \
    $FOLLOWER

#!/bin/bash
# usage: run_vllm.sh <node_rank>
NODE_RANK=${1:-0}
MASTER_IP=192.168.50.10
MODEL=/mnt/models/Qwen3-235B-A22B
export GLOO_SOCKET_IFNAME=ens3 NCCL_SOCKET_IFNAME=ens3
if [ "$NODE_RANK" -eq 0 ]; then
  vllm serve $MODEL --tensor-parallel-size 4 --data-parallel-size 4 \
    --data-parallel-address $MASTER_IP --data-parallel-rpc-port 13355 --port 8000
else
  vllm serve $MODEL --tensor-parallel-size 4 --data-parallel-size 4 --headless \
    --data-parallel-start-rank 2 --data-parallel-address $MASTER_IP --data-parallel-rpc-port 13355
fi

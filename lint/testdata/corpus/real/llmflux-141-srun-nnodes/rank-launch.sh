#!/bin/bash
RANK=${SLURM_PROCID}
NNODES=${SLURM_NNODES:-2}
MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
COMMON=(--tensor-parallel-size 4 --pipeline-parallel-size 2 --nnodes "$NNODES" --node-rank "$RANK"
        --master-addr "$MASTER_ADDR" --master-port 29511 --distributed-executor-backend mp)
if [ "$RANK" -eq 0 ]; then
  vllm serve /models/Llama-3.3-70B-Instruct "${COMMON[@]}" --port 8000
else
  vllm serve /models/Llama-3.3-70B-Instruct "${COMMON[@]}" --headless
fi

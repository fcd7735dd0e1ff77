#!/bin/bash
#SBATCH --job-name "k2-dpep"
#SBATCH -N 4
#SBATCH --gres=gpu:4
#SBATCH --time=08:00:00

set -euo pipefail

export HF_HOME=/scratch/hf
VENV="/scratch/venv/bin/activate"
source "$VENV"

MODEL="moonshotai/Kimi-K2-Instruct"
DP_SIZE=16
DP_LOCAL=4
PORT=8000
RPC_PORT=29650

ALL_NODES=$(scontrol show hostnames $SLURM_JOB_NODELIST)
HEAD_NODE=$(echo "$ALL_NODES" | head -n 1)
HEAD_IP=$(srun -N 1 -n 1 -w ${HEAD_NODE} hostname --ip-address 2>/dev/null | head -1)

export NCCL_IB_DISABLE=0
export NCCL_DEBUG=WARN

RANK=0
for NODE in $ALL_NODES; do
    if [ "$NODE" = "$HEAD_NODE" ]; then
        RANK=$((RANK + DP_LOCAL))
        continue
    fi
    srun -N 1 -n 1 -w ${NODE} --gres=gpu:4 \
      bash -c "
        source $VENV
        export HF_HOME=/scratch/hf
        export CUDA_VISIBLE_DEVICES=0,1,2,3
        vllm serve $MODEL \
            --headless \
            --data-parallel-start-rank $RANK \
            --trust-remote-code \
            --data-parallel-size $DP_SIZE \
            --data-parallel-size-local $DP_LOCAL \
            --data-parallel-address ${HEAD_IP} \
            --data-parallel-rpc-port $RPC_PORT \
            --enable-expert-parallel \
            --max-num-batched-tokens 4096 \
            --max-num-seqs 16 \
            --max-model-len 4096 \
            --gpu-memory-utilization 0.90
      " &
    RANK=$((RANK + DP_LOCAL))
done

sleep 10

srun -N 1 -n 1 -w ${HEAD_NODE} --gres=gpu:4 \
  bash -c "
    source $VENV
    export HF_HOME=/scratch/hf
    export CUDA_VISIBLE_DEVICES=0,1,2,3
    vllm serve $MODEL \
        --port $PORT \
        --served-model-name kimi-k2 \
        --trust-remote-code \
        --data-parallel-size $DP_SIZE \
        --data-parallel-size-local $DP_LOCAL \
        --data-parallel-address ${HEAD_IP} \
        --data-parallel-rpc-port $RPC_PORT \
        --enable-expert-parallel \
        --max-num-batched-tokens 4096 \
        --max-num-seqs 16 \
        --max-model-len 4096 \
        --gpu-memory-utilization 0.90 \
        --host 0.0.0.0
  " &
wait

#!/bin/bash
NODE_RANK=${SLURM_NODEID}
NNODES=${SLURM_JOB_NUM_NODES:-2}
DP_LOCAL=8
DP_TOTAL=$(( NNODES * DP_LOCAL ))
START_RANK=$(( NODE_RANK * DP_LOCAL ))
HEAD_IP=${HEAD_IP:-10.0.9.1}
export GLOO_SOCKET_IFNAME=ib0 NCCL_SOCKET_IFNAME=ib0
COMMON=(
  /models/GLM-4.7-FP8
  --trust-remote-code
  --tensor-parallel-size 1
  --data-parallel-size "${DP_TOTAL}"
  --data-parallel-size-local "${DP_LOCAL}"
  --data-parallel-address "${HEAD_IP}"
  --data-parallel-rpc-port 13345
  --enable-expert-parallel
  --all2all-backend deepep_low_latency
  --kv-cache-dtype fp8
  --max-model-len 32768
)
if (( NODE_RANK == 0 )); then
  exec vllm serve "${COMMON[@]}" \
    --host 0.0.0.0 --port 8000 \
    --tool-call-parser glm47 \
    --reasoning-parser glm45 \
    --enable-auto-tool-choice
else
  exec vllm serve "${COMMON[@]}" --headless \
    --data-parallel-start-rank "${START_RANK}"
fi

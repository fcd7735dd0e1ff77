#!/bin/bash
set -uo pipefail

MODEL=${MODEL:-zai-org/GLM-5.2-FP8}
NODES=${NODES:-2}
GPUS_PER_NODE=${GPUS_PER_NODE:-8}
NODE_RANK=${NODE_RANK:-0}
MASTER_ADDR=${MASTER_ADDR:-127.0.0.1}
PORT=${PORT:-8000}
PREFILL_TOKENS=${PREFILL_TOKENS:-2048}
DECODE_TOKENS=${DECODE_TOKENS:-128}
GPU_UTIL=${GPU_UTIL:-0.90}
EP=$(( NODES * GPUS_PER_NODE ))

if [ "$NODES" -gt 1 ]; then HYBRID=${HYBRID:-0}; else HYBRID=${HYBRID:-1}; fi

export VLLM_DEEPEP_V2_ALLOW_HYBRID_MODE=$HYBRID
export VLLM_USE_DEEP_GEMM=0
export VLLM_PD_KEEP_PREVIOUS=${VLLM_PD_KEEP_PREVIOUS:-1}
export VLLM_PD_ALLOW_CUDAGRAPHS=${VLLM_PD_ALLOW_CUDAGRAPHS:-1}

if [ "$NODE_RANK" = "0" ]; then
  ROLEFLAGS="--port ${PORT}"
else
  ROLEFLAGS="--headless --data-parallel-start-rank $(( NODE_RANK * GPUS_PER_NODE ))"
fi

DPFLAGS=""
if [ "$NODES" -gt 1 ]; then
  DPFLAGS="--data-parallel-address ${MASTER_ADDR} --data-parallel-rpc-port ${DP_RPC_PORT:-5555}"
fi

vllm serve "$MODEL" $ROLEFLAGS \
  --trust-remote-code \
  --block-size 64 \
  --kv-cache-dtype fp8 \
  --data-parallel-size "$EP" --data-parallel-size-local "$GPUS_PER_NODE" \
  $DPFLAGS \
  --enable-expert-parallel \
  --tensor-parallel-size 1 \
  --all2all-backend deepep_v2 \
  --max-num-seqs 128 --max-num-batched-tokens "$PREFILL_TOKENS" \
  --gpu-memory-utilization "$GPU_UTIL" --max-model-len 8192 \
  --worker-extension-cls rolesw.Switcher 2>&1 | tee /tmp/vllm-engine.log &
ENGINE_PID=$!
wait $ENGINE_PID

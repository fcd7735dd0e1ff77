#!/bin/bash
# Usage: $0 <role> <PREFILL_HEAD_IP> <DECODE_HEAD_IP> [START_RANK]
#   role: solo-head | solo-worker | prefill-head | prefill-worker | decode-head | decode-worker | proxy
set -e

if [ -z "$1" ] || [ -z "$2" ] || [ -z "$3" ]; then
    echo "Usage: $0 <role> <PREFILL_HEAD_IP> <DECODE_HEAD_IP> [START_RANK]"
    exit 1
fi

ROLE="$1"
P_HEAD="$2"
D_HEAD="$3"
START_RANK="${4:-1}"
MODEL=${MODEL:-Qwen/Qwen3-30B-A3B-FP8}
A2A=${A2A:-deepep_low_latency}
SOLO_DP=${SOLO_DP:-2}
P_DP=${P_DP:-2}
D_DP=${D_DP:-2}
LOCAL_DP=1
LOCAL_TP=1
NIXL_BACKEND=${NIXL_BACKEND:-UCX}

RPC_PORT=13345
P_PORT=8100
D_PORT=8000
PROXY_PORT=9000

export VLLM_ENGINE_READY_TIMEOUT_S=3600
export NCCL_IB_HCA="mlx5_0:1"
export GLOO_SOCKET_IFNAME=ens1
export NCCL_SOCKET_IFNAME=ens1
export CUDA_VISIBLE_DEVICES=$(seq -s, 0 $((LOCAL_DP * LOCAL_TP - 1)))
MY_IP=$(ip -4 addr show "${GLOO_SOCKET_IFNAME}" | grep -oP '(?<=inet\s)\d+(\.\d+){3}' | head -1)
export VLLM_NIXL_SIDE_CHANNEL_HOST="${MY_IP}"

KV='{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_connector_extra_config":{"backends":["'"${NIXL_BACKEND}"'"]}}'

case "$ROLE" in
  solo-head)      DP=$SOLO_DP; ADDR="$P_HEAD"; API_PORT=8100 ;;
  solo-worker)    DP=$SOLO_DP; ADDR="$P_HEAD" ;;
  prefill-head)   DP=$P_DP; ADDR="$P_HEAD"; KV_CONFIG="$KV"; API_PORT=$P_PORT ;;
  prefill-worker) DP=$P_DP; ADDR="$P_HEAD"; KV_CONFIG="$KV" ;;
  decode-head)    DP=$D_DP; ADDR="$D_HEAD"; KV_CONFIG="$KV"; API_PORT=$D_PORT ;;
  decode-worker)  DP=$D_DP; ADDR="$D_HEAD"; KV_CONFIG="$KV" ;;
  proxy) ;;
  *) echo "unknown role: $ROLE"; exit 1 ;;
esac

ARGS=(
  --enable-expert-parallel
  --all2all-backend "${A2A}"
  --tensor-parallel-size "${LOCAL_TP}"
  --data-parallel-size "${DP}"
  --data-parallel-size-local "${LOCAL_DP}"
  --data-parallel-address "${ADDR}"
  --data-parallel-rpc-port "${RPC_PORT}"
  --gpu-memory-utilization 0.85
)

case "$ROLE" in
  *-head)   ARGS+=(--port "${API_PORT}") ;;
  *-worker) ARGS+=(--data-parallel-start-rank "${START_RANK}" --headless) ;;
esac

case "$ROLE" in
  prefill-*|decode-*) ARGS+=(--kv-transfer-config "${KV_CONFIG}") ;;
esac

case "$ROLE" in
  proxy)
    python3 "$(dirname "$0")/disagg_proxy.py" \
      --prefill-url "http://${P_HEAD}:${P_PORT}" --decode-url "http://${D_HEAD}:${D_PORT}" --port "${PROXY_PORT}"
    ;;
  *)
    vllm serve "${MODEL}" "${ARGS[@]}"
    ;;
esac

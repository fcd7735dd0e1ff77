#!/bin/bash
# DP + EP server whose multi-node flags are only added when asked for.
set -e

WEIGHTS="/srv/weights/moe-w8a8"
DP=4
TP=1
NODES=1
LEADER=""
RPC_PORT=14800
LISTEN_PORT=9400
WORKER=0
FIRST_RANK=0

export HCCL_SOCKET_IFNAME=ens7f0
export GLOO_SOCKET_IFNAME=ens7f0

while [[ $# -gt 0 ]]; do
    case $1 in
        --dp) DP="$2"; shift 2 ;;
        --tp) TP="$2"; shift 2 ;;
        --nodes) NODES="$2"; shift 2 ;;
        --leader) LEADER="$2"; shift 2 ;;
        --worker) WORKER=1; shift ;;
        --first-rank) FIRST_RANK="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 1 ;;
    esac
done

PER_NODE=$((DP / NODES))

MULTI=""
if [[ -n "$LEADER" ]] && (( NODES > 1 )); then
    MULTI="--data-parallel-address $LEADER --data-parallel-rpc-port $RPC_PORT"
    if (( WORKER == 1 )); then
        MULTI="$MULTI --headless --data-parallel-start-rank $FIRST_RANK"
    fi
fi

vllm serve "$WEIGHTS" \
    --data-parallel-size "$DP" \
    --data-parallel-size-local "$PER_NODE" \
    --tensor-parallel-size "$TP" \
    --enable-expert-parallel \
    --api-server-count 1 \
    --quantization ascend \
    --port "$LISTEN_PORT" \
    $MULTI

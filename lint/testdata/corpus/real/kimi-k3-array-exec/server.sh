#!/usr/bin/env bash
# One script on both nodes; PROC_INDEX is this node's rank and MODE picks
# one of three parallel layouts for 2 x 8 GPUs.
set -euo pipefail

HOSTS=2
PER_HOST=8
RANK_HERE="${PROC_INDEX:?rank required}"
LEAD="${LEAD_ADDR:?leader address required}"

export GLOO_SOCKET_IFNAME="${GLOO_SOCKET_IFNAME:-ib0}"
export NCCL_SOCKET_IFNAME="${NCCL_SOCKET_IFNAME:-ib0}"

ARGS=(
    vllm serve "$WEIGHTS"
    --port 9600
    --trust-remote-code
    --max-model-len 131072
)

case "$MODE" in
    tp)
        ARGS+=(
            --tensor-parallel-size "$((HOSTS * PER_HOST))"
            --nnodes "$HOSTS"
            --node-rank "$RANK_HERE"
            --master-addr "$LEAD"
            -cc.pass_config.fuse_allreduce_rms=False
        )
        if [ "$RANK_HERE" -gt 0 ]; then
            ARGS+=(--headless)
        fi
        ;;
    tep)
        ARGS+=(
            --tensor-parallel-size "$((HOSTS * PER_HOST))"
            --nnodes "$HOSTS"
            --node-rank "$RANK_HERE"
            --master-addr "$LEAD"
            --enable-expert-parallel
        )
        if [ "$RANK_HERE" -gt 0 ]; then
            ARGS+=(--headless)
        fi
        ;;
    dep)
        ARGS+=(
            --data-parallel-size "$((HOSTS * PER_HOST))"
            --data-parallel-size-local "$PER_HOST"
            --data-parallel-address "$LEAD"
            --data-parallel-start-rank "$((RANK_HERE * PER_HOST))"
            --data-parallel-hybrid-lb
            --enable-expert-parallel
        )
        ;;
    *)
        echo "MODE must be tp, tep or dep" >&2
        exit 1
        ;;
esac

exec "${ARGS[@]}"

#!/usr/bin/env bash
set -euo pipefail
# Kimi-K3 aggregate server: the runner gives rank, node count, GPUs per node
# and the head address; the topology picks DP attention or one cross-node TP.
: "${SERVED_NAME:?}" "${WEIGHTS:?}" "${HTTP_PORT:?}" "${TOPOLOGY:?}" \
  "${N_NODES:?}" "${GPUS_PER_NODE:?}" "${RANK:?}" "${HEAD:?}" "${TP:?}" "${EP:?}"

WORLD=$((N_NODES * GPUS_PER_NODE))

CMD=(
    vllm serve "$WEIGHTS"
    --served-model-name "$SERVED_NAME"
    --host 0.0.0.0
    --port "$HTTP_PORT"
    --trust-remote-code
    --gpu-memory-utilization 0.92
    --enable-prefix-caching
    --enable-auto-tool-choice
    --tool-call-parser kimi_k3
    --reasoning-parser kimi_k3
    --max-num-seqs 256
)

if [[ "${NO_CUSTOM_AR:-0}" == "1" ]]; then
    CMD+=(--disable-custom-all-reduce)
fi

if [[ "$TOPOLOGY" == "dp-attn" ]]; then
    CMD+=(
        --data-parallel-size "$WORLD"
        --data-parallel-size-local "$GPUS_PER_NODE"
        --data-parallel-address "$HEAD"
        --data-parallel-start-rank "$((RANK * GPUS_PER_NODE))"
        --data-parallel-hybrid-lb
    )
    if [ "$EP" -gt 1 ]; then
        CMD+=(--enable-expert-parallel)
    fi
elif [[ "$TOPOLOGY" == "tp" ]]; then
    if [ "$TP" -ne "$WORLD" ]; then
        echo "cross-node TP ($TP) must equal the world size ($WORLD)" >&2
        exit 1
    fi
    CMD+=(
        --tensor-parallel-size "$TP"
        --nnodes "$N_NODES"
        --node-rank "$RANK"
        --master-addr "$HEAD"
    )
    if [ "$RANK" -gt 0 ]; then
        CMD+=(--headless)
    fi
else
    echo "TOPOLOGY must be dp-attn or tp, got: $TOPOLOGY" >&2
    exit 1
fi

printf '%q ' "${CMD[@]}"
printf '\n'
exec "${CMD[@]}"

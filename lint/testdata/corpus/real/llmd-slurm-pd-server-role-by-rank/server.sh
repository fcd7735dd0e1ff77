#!/usr/bin/env bash
set -euo pipefail

source /opt/bench/lib.sh

NODE_RANK="${NODE_RANK:-${SLURM_PROCID:-0}}"
PREFILL_NODES="${PREFILL_NODES:-1}"
DECODE_NODES="${DECODE_NODES:-1}"
GPUS_PER_NODE="${GPUS_PER_NODE:-8}"
VLLM_PORT=8200
SIDECAR_PORT=8000

MODEL="${MODEL_DIR}/${MODEL_NAME}"
HOST_IP=$(ip route get 1.1.1.1 | awk '/src/ {print $7}')

VLLM_LOG="/logs/vllm_rank${NODE_RANK}.log"

if [[ "$NODE_RANK" -lt "$PREFILL_NODES" ]]; then
    ROLE="prefill"
    DP_SIZE="$PREFILL_DP_SIZE"
    DP_ADDR="$PREFILL_DP_ADDR"
    LWS_WORKER_INDEX="$NODE_RANK"
    LWS_GROUP_SIZE="$PREFILL_NODES"
elif [[ "$NODE_RANK" -lt $((PREFILL_NODES + DECODE_NODES)) ]]; then
    ROLE="decode"
    DP_SIZE="$DECODE_DP_SIZE"
    DP_ADDR="$DECODE_DP_ADDR"
    LWS_WORKER_INDEX=$((NODE_RANK - PREFILL_NODES))
    LWS_GROUP_SIZE="$DECODE_NODES"
else
    echo "ERROR: NODE_RANK=$NODE_RANK out of range" >&2
    exit 1
fi

DP_SIZE_LOCAL="$GPUS_PER_NODE"
START_RANK=$((LWS_WORKER_INDEX * DP_SIZE_LOCAL))
TP_SIZE=1

ROLE_EXTRA_ARGS=""
if [[ -n "${CONFIG_FILE:-}" ]]; then
    RECIPE_PATH="/etc/recipes/${CONFIG_FILE}"
    if [[ -f "$RECIPE_PATH" ]]; then
        eval "$(python3 - <<PY
import yaml
recipe = yaml.safe_load(open('${RECIPE_PATH}'))
section = recipe.get('${ROLE}', {}) or {}
extra = (section.get('extra-args') or '').strip()
print(f'ROLE_EXTRA_ARGS={extra!r}')
for k, v in (section.get('env') or {}).items():
    print(f'export {k}={v!r}')
PY
)"
    fi
fi

export NVIDIA_GDRCOPY=enabled
export NVSHMEM_REMOTE_TRANSPORT=ibgda
export NVSHMEM_IB_ENABLE_IBGDA=true
export NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME=${NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME:-eth0}
export GLOO_SOCKET_IFNAME=${GLOO_SOCKET_IFNAME:-eth0}
export NCCL_SOCKET_IFNAME=${NCCL_SOCKET_IFNAME:-eth0}
export VLLM_SKIP_P2P_CHECK=1
export VLLM_RANDOMIZE_DP_DUMMY_INPUTS=1
export VLLM_USE_DEEP_GEMM=1
export VLLM_NIXL_SIDE_CHANNEL_HOST="$HOST_IP"

KV_TRANSFER_CONFIG='{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_load_failure_policy":"fail"}'

COMMON_ARGS=(
    --port "$VLLM_PORT"
    --trust-remote-code
    --api-server-count 1
    --disable-access-log-for-endpoints=/health,/metrics
    --enable-expert-parallel
    --tensor-parallel-size "$TP_SIZE"
    --data-parallel-size "$DP_SIZE"
    --kv_transfer_config "$KV_TRANSFER_CONFIG"
    --moe-backend deep_gemm
)

if [[ "$LWS_GROUP_SIZE" -gt 1 ]]; then
    COMMON_ARGS+=(
        --data-parallel-hybrid-lb
        --data-parallel-size-local "$DP_SIZE_LOCAL"
        --data-parallel-address "$DP_ADDR"
        --data-parallel-rpc-port 5555
        --data-parallel-start-rank "$START_RANK"
    )
fi

# shellcheck disable=SC2086
vllm serve "$MODEL" "${COMMON_ARGS[@]}" $ROLE_EXTRA_ARGS \
    > "$VLLM_LOG" 2>&1 &
VLLM_PID=$!

if [[ "$LWS_WORKER_INDEX" -eq 0 ]]; then
    SIDECAR_FLAGS=(--port="$SIDECAR_PORT" --vllm-port="$VLLM_PORT" --kv-connector=nixlv2 --secure-proxy=false)
    if [[ "$ROLE" == "decode" ]]; then
        SIDECAR_FLAGS+=(--enable-prefiller-sampling)
    fi
    pd-sidecar "${SIDECAR_FLAGS[@]}" > /logs/sidecar.log 2>&1 &
fi
wait

#!/usr/bin/env bash
set -euo pipefail

IMAGE="${IMAGE:-registry.example/vllm@sha256:1111111111111111111111111111111111111111111111111111111111111111}"
MODEL_DIR="${MODEL_DIR:-/models/glm-flash}"
SERVED_MODEL_NAME="${SERVED_MODEL_NAME:-glm-flash}"

NODE_RANK="${NODE_RANK:?set NODE_RANK to 0 (head) or 1 (worker)}"
NNODES="${NNODES:-2}"
TP_SIZE="${TP_SIZE:-8}"
DCP_SIZE="${DCP_SIZE:-1}"
MASTER_ADDR="${MASTER_ADDR:-10.50.0.1}"
MASTER_PORT="${MASTER_PORT:-29501}"
HEAD_HOST_IP="${HEAD_HOST_IP:-10.50.0.1}"
WORKER_HOST_IP="${WORKER_HOST_IP:-10.50.0.2}"
NCCL_IFACE="${NCCL_IFACE:-ens5f1np1}"

PORT="${PORT:-8000}"
MAX_MODEL_LEN="${MAX_MODEL_LEN:-524288}"
MAX_NUM_SEQS="${MAX_NUM_SEQS:-10}"
MAX_NUM_BATCHED_TOKENS="${MAX_NUM_BATCHED_TOKENS:-8192}"
GPU_MEMORY_UTILIZATION="${GPU_MEMORY_UTILIZATION:-0.95}"
MTP_TOKENS="${MTP_TOKENS:-5}"
PREFIX_CACHING="${PREFIX_CACHING:-1}"
READY_TIMEOUT_SECONDS="${READY_TIMEOUT_SECONDS:-7200}"
DISTRIBUTED_TIMEOUT_SECONDS="${DISTRIBUTED_TIMEOUT_SECONDS:-7200}"
CPU_DISTRIBUTED_TIMEOUT_SECONDS="${CPU_DISTRIBUTED_TIMEOUT_SECONDS:-7200}"
KV_CACHE_DTYPE="${KV_CACHE_DTYPE:-fp8}"
CAPTURE_DIR="${CAPTURE_DIR:-}"

case "${NODE_RANK}" in
  0)
    ROLE="head"
    HOST_IP="${HEAD_HOST_IP}"
    ;;
  1)
    ROLE="worker"
    HOST_IP="${WORKER_HOST_IP}"
    ;;
  *)
    echo "NODE_RANK must be 0 or 1, got ${NODE_RANK}" >&2
    exit 2
    ;;
esac

CONTAINER_NAME="${CONTAINER_NAME:-glm-flash-tp8-${ROLE}}"
CACHE_DIR="${CACHE_DIR:-${HOME}/.cache/vllm-glm-flash-tp8}"
mkdir -p "${CACHE_DIR}"

capture_args=()
if [[ -n "${CAPTURE_DIR}" ]]; then
  capture_args=(
    -e VLLM_KLD_HIDDEN_CAPTURE_DIR=/capture-hidden
    -v "${CAPTURE_DIR}:/capture-hidden:rw"
  )
fi
prefix_args=()
if [[ "${PREFIX_CACHING}" == 1 ]]; then
  prefix_args=(--enable-prefix-caching)
fi
speculative_args=()
if ((MTP_TOKENS > 0)); then
  speculative_args=(
    --speculative-config
    "{\"method\":\"mtp\",\"num_speculative_tokens\":${MTP_TOKENS}}"
  )
fi

docker run -d \
  --name "${CONTAINER_NAME}" \
  --init \
  --gpus all \
  --network host \
  --ipc host \
  --shm-size 32g \
  --ulimit memlock=-1 \
  --ulimit stack=67108864 \
  -e VLLM_ENGINE_READY_TIMEOUT_S="${READY_TIMEOUT_SECONDS}" \
  -e OMP_NUM_THREADS=2 \
  -e VLLM_HOST_IP="${HOST_IP}" \
  -e GLOO_SOCKET_IFNAME="${NCCL_IFACE}" \
  -e NCCL_SOCKET_IFNAME="${NCCL_IFACE}" \
  -e NCCL_NET=Socket \
  -e NCCL_IB_DISABLE=1 \
  -e NCCL_CUMEM_ENABLE=0 \
  -e NCCL_DEBUG=INFO \
  -e NCCL_ENV_PLUGIN=none \
  -e NCCL_NET_PLUGIN=none \
  -e NCCL_RMA_PLUGIN=none \
  -e NCCL_GIN_PLUGIN=none \
  "${capture_args[@]}" \
  -v "${MODEL_DIR}:/model:ro" \
  -v "${CACHE_DIR}:/root/.cache" \
  "${IMAGE}" \
  /model \
  --served-model-name "${SERVED_MODEL_NAME}" \
  --host 0.0.0.0 \
  --port "${PORT}" \
  --tensor-parallel-size "${TP_SIZE}" \
  --decode-context-parallel-size "${DCP_SIZE}" \
  --nnodes "${NNODES}" \
  --node-rank "${NODE_RANK}" \
  --master-addr "${MASTER_ADDR}" \
  --master-port "${MASTER_PORT}" \
  --distributed-executor-backend mp \
  --distributed-timeout-seconds "${DISTRIBUTED_TIMEOUT_SECONDS}" \
  --cpu-distributed-timeout-seconds "${CPU_DISTRIBUTED_TIMEOUT_SECONDS}" \
  --disable-custom-all-reduce \
  --max-num-seqs "${MAX_NUM_SEQS}" \
  --max-model-len "${MAX_MODEL_LEN}" \
  --max-num-batched-tokens "${MAX_NUM_BATCHED_TOKENS}" \
  --gpu-memory-utilization "${GPU_MEMORY_UTILIZATION}" \
  --kv-cache-dtype "${KV_CACHE_DTYPE}" \
  "${prefix_args[@]}" \
  --no-enable-flashinfer-autotune \
  --enable-auto-tool-choice \
  --tool-call-parser glm47 \
  --reasoning-parser glm45 \
  --default-chat-template-kwargs '{"reasoning_effort":"max"}' \
  "${speculative_args[@]}"

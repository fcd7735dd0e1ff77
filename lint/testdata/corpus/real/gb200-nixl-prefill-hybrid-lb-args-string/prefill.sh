#!/usr/bin/bash
# Head:   ./prefill.sh --dp 8
# Worker: ./prefill.sh --dp 8 --dp-start-rank 4 --master-addr 10.1.0.11
# Hybrid LB: head and worker each serve HTTP on 8000; list both in the router.

IP=$(hostname -I | awk '{print $1}')

DP=4
DP_LOCAL=4
DPSR=0
MASTER_ADDR=$IP

while [[ $# -gt 0 ]]; do
    case $1 in
        --dp) DP="$2"; shift 2 ;;
        --dp-local) DP_LOCAL="$2"; shift 2 ;;
        --dp-start-rank) DPSR="$2"; shift 2 ;;
        --master-addr) MASTER_ADDR="$2"; shift 2 ;;
        *) echo "Unknown option: $1"; exit 1 ;;
    esac
done

export VLLM_USE_FLASHINFER_MOE_FP4=1
export VLLM_RANDOMIZE_DP_DUMMY_INPUTS=1
export UCX_TLS=cuda_copy,cuda_ipc,tcp
export UCX_CUDA_IPC_ENABLE_MNNVL=y
export GLOO_SOCKET_IFNAME="${GLOO_SOCKET_IFNAME:=enp192s2}"
export NCCL_SOCKET_IFNAME="${NCCL_SOCKET_IFNAME:=enp192s2}"
export NCCL_IB_HCA="mlx5_1,mlx5_2,mlx5_3,mlx5_4"
export VLLM_NIXL_SIDE_CHANNEL_HOST=${IP}
export VLLM_NIXL_SIDE_CHANNEL_PORT=5600

MODEL=nvidia/Kimi-K2.5-NVFP4
ENGINE_ARGS="
    -dp $DP \
    -ep \
    --enforce-eager \
    --trust-remote-code \
    --gpu-memory-utilization 0.85 \
    --data-parallel-size-local $DP_LOCAL \
    --data-parallel-address $MASTER_ADDR \
    --data-parallel-hybrid-lb \
    --max-model-len 9216 \
    --kv-transfer-config {\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\",\"kv_load_failure_policy\":\"fail\",\"kv_buffer_device\":\"cuda\"} \
    --kv-cache-dtype fp8 \
    --no-enable-prefix-caching \
"

ENGINE_ARGS+=" --enable-sleep-mode"
# workers also need their start rank
if [ "$DPSR" -gt 0 ]; then
    ENGINE_ARGS+=" --data-parallel-start-rank $DPSR"
fi

vllm serve $MODEL $ENGINE_ARGS 2>&1 | tee "prefill-${DPSR}-$(hostname -s).log"

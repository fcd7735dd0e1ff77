#!/bin/bash
# Node 0 (Primary) - Multi-node vLLM with Expert Parallel (EP)
#  Example:
# bash launch_vllm_head.sh 10.4.147.22 13345 deepseek-ai/DeepSeek-V3-0324 deepep_low_latency 2 1 8 1
set -e
if [ -z "$1" ]; then
    echo "Usage: $0 <NODE1_IP> [RPC_PORT] [MODEL] [TOTAL_DP_SIZE] [LOCAL_DP_SIZE] [API_SERVERS]"
    exit 1
fi
export LD_LIBRARY_PATH=$(python3 -c "import torch; import os; print(os.path.join(torch.__path__[0], 'lib'))"):$LD_LIBRARY_PATH
export VLLM_USE_DEEP_GEMM=1
export NCCL_P2P_DISABLE=1
export GLOO_SOCKET_IFNAME=enp71s0       # Change to your primary network interface
export NCCL_SOCKET_IFNAME=enp71s0       # Uncomment if using NCCL
export TP_SOCKET_IFNAME=enp71s0         # Uncomment if using tensor parallel
export NCCL_NET_PLUGIN="/opt/amazon/ofi-nccl/lib/x86_64-linux-gnu/libnccl-net.so"
export NCCL_P2P_NET_CHUNKSIZE=524288
export NCCL_BUFFSIZE=8388608
export OMP_NUM_THREADS=32
export VLLM_ENGINE_READY_TIMEOUT_S=3600
export DG_JIT_CACHE_DIR="/scratch/$USER/dg_jit_cache"
NODE1_IP="$1"                                      # Node 0 IP address (REQUIRED)
RPC_PORT="${2:-13345}"                             # RPC communication port
MODEL="${3:-deepseek-ai/DeepSeek-V3-0324}"         # Model to serve
BACKEND="${4:-allgather_reducescatter}"            # Backend to use
TOTAL_DP_SIZE="${5:-16}"                           # Total DP size across all nodes
LOCAL_DP_SIZE="${6:-8}"                            # Local DP size on this node
LOCAL_TP_SIZE="${7:-1}"                            # Local TP size on this node
API_SERVERS="${8:-8}"                              # Number of API servers
vllm serve "${MODEL}" \
    --enable-expert-parallel \
    --all2all-backend "${BACKEND}" \
    --tensor-parallel-size "${LOCAL_TP_SIZE}" \
    --data-parallel-size "${TOTAL_DP_SIZE}" \
    --data-parallel-size-local "${LOCAL_DP_SIZE}" \
    --data-parallel-address "${NODE1_IP}" \
    --data-parallel-rpc-port "${RPC_PORT}" \
    --gpu-memory-utilization 0.8 \
    --api-server-count="${API_SERVERS}"

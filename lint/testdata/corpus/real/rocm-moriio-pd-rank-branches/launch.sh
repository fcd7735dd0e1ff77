#!/bin/bash
# One script for every node of a 1P1D MoRI-IO deployment (ROCm): rank 0 the
# proxy, rank 1 the prefill master, rank xP+1 the decode master.
MASTER_ADDR="${MASTER_ADDR:-localhost}"
NODE_RANK="${NODE_RANK:-0}"
MODEL_DIR=$MODEL_DIR
xP="${xP:-1}"
yD="${yD:-1}"
NODE_IPS="${NODE_IPS:-localhost}"

P_DP=$((xP * 8))
D_DP=$((yD * 8))
LOCAL_DP=8
P_HEAD=$(echo "$NODE_IPS" | awk -F',' '{print $2}')
D_HEAD=$(echo "$NODE_IPS" | awk -F',' -v pos="$xP" '{print $(pos+2)}')
PROXY_PORT=10001

if [ "$NODE_RANK" -eq 0 ]; then
    echo "proxy node"
    python /opt/vllm/examples/online_serving/disaggregated_serving/moriio_toy_proxy_server.py \
        2>&1 | tee -a /logs/proxy.log >/dev/null &
    proxy_pid=$!
    sleep 600
    kill $proxy_pid

elif [ "$NODE_RANK" -eq 1 ]; then
    export VLLM_ROCM_USE_AITER=1
    export VLLM_ROCM_USE_AITER_MOE=1
    export VLLM_USE_V1=1
    export VLLM_ALL2ALL_BACKEND=mori
    export GLOO_SOCKET_IFNAME=eth0

    vllm serve ${MODEL_DIR} \
        -tp 1 \
        --data-parallel-size ${P_DP} \
        --data-parallel-size-local ${LOCAL_DP} \
        --data-parallel-address ${P_HEAD} \
        --data-parallel-rpc-port 13345 \
        --api-server-count=8 \
        --enable-expert-parallel \
        --port 20005 \
        --gpu_memory_utilization 0.8 \
        --kv-cache-dtype fp8 \
        --block-size 1 \
        --all2all-backend mori \
        --trust-remote-code \
        --enforce-eager \
        --kv-transfer-config '{"kv_connector":"MoRIIOConnector","kv_role":"kv_producer","kv_connector_extra_config":{"proxy_ip":"'"${MASTER_ADDR}"'","proxy_port":"10001","http_port":"20005","handshake_port":"8405","notify_port":"61005"}}' \
        2>&1 | tee /logs/prefill.log > /dev/null &
    wait

elif [ "$NODE_RANK" -eq $((xP + 1)) ]; then
    export VLLM_ROCM_USE_AITER=1
    export VLLM_ROCM_USE_AITER_MOE=1
    export VLLM_USE_V1=1
    export VLLM_ALL2ALL_BACKEND=mori
    export GLOO_SOCKET_IFNAME=eth0

    vllm serve ${MODEL_DIR} \
        -tp 1 \
        --data-parallel-size ${D_DP} \
        --data-parallel-size-local ${LOCAL_DP} \
        --data-parallel-address ${D_HEAD} \
        --data-parallel-rpc-port 13345 \
        --api-server-count=8 \
        --enable-expert-parallel \
        --port 20005 \
        --gpu_memory_utilization 0.8 \
        --kv-cache-dtype fp8 \
        --block-size 1 \
        --all2all-backend mori \
        --trust-remote-code \
        --compilation-config '{"cudagraph_mode": "FULL_DECODE_ONLY"}' \
        --kv-transfer-config '{"kv_connector":"MoRIIOConnector","kv_role":"kv_consumer","kv_connector_extra_config":{"proxy_ip":"'"${MASTER_ADDR}"'","proxy_port":"10001","http_port":"20005","handshake_port":"8405","notify_port":"61005"}}' \
        2>&1 | tee /logs/decode.log > /dev/null &
    wait
fi

#!/bin/bash
# Prefiller and decoder on one host with NixlConnector, then a toy proxy.
wait_for_server() {
    local port=$1
    until curl -s http://localhost:$port/health > /dev/null; do sleep 5; done
}

echo "Starting prefiller on GPU 0..."
CUDA_VISIBLE_DEVICES=0 \
UCX_NET_DEVICES=all \
VLLM_NIXL_SIDE_CHANNEL_PORT=5600 \
vllm serve Qwen/Qwen3-1.7B \
  --port 8100 \
  --max-model-len 8192 \
  --enforce-eager \      
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

echo "Starting decoder on GPU 1..."
CUDA_VISIBLE_DEVICES=1 \
UCX_NET_DEVICES=all \
VLLM_NIXL_SIDE_CHANNEL_PORT=5601 \
vllm serve Qwen/Qwen3-1.7B \
  --port 8200 \
  --max-model-len 8192 \
  --enforce-eager \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

wait_for_server 8100
wait_for_server 8200

python3 toy_proxy_server.py --port 8192 \
  --prefiller-hosts localhost --prefiller-ports 8100 \
  --decoder-hosts localhost --decoder-ports 8200

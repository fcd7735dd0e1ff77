# lint-version: 0.11.0
# One host split between the engines (vllm-project/router scripts/llama3.1):
# localhost is reachable from the decoder.
export VLLM_NIXL_SIDE_CHANNEL_HOST=0.0.0.0 VLLM_NIXL_SIDE_CHANNEL_PORT=8083
CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve m --port 8081 --data-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

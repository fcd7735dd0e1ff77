# lint-version: 0.11.0
export VLLM_NIXL_SIDE_CHANNEL_PORT=8093
CUDA_VISIBLE_DEVICES=4,5,6,7 vllm serve m --port 8082 --data-parallel-size 4 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

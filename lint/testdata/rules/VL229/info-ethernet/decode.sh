# lint-version: 0.19.0
export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.2
vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}'

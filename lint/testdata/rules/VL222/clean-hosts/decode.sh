# lint-version: 0.11.0
export VLLM_NIXL_SIDE_CHANNEL_HOST=$NODE_IP
vllm serve m --data-parallel-size 8 --enable-expert-parallel --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

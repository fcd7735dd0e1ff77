# lint-version: 0.12.0
# vLLM's single-host example (docs/features/nixl_connector_usage.md).
CUDA_VISIBLE_DEVICES=0 UCX_NET_DEVICES=all VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
CUDA_VISIBLE_DEVICES=1 UCX_NET_DEVICES=all VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &

# lint-version: 0.26.0
# The same pair on Gaudi (HABANA_VISIBLE_DEVICES, as Dynamo's
# disagg_router_gaudi.sh): CUDA's IPC is not what moves the KV.
HABANA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
HABANA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' &
wait

# lint-version: 0.19.0
# Nothing shows RDMA NICs: TCP may be all there is (info).
export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.1
export UCX_TLS=tcp,cuda_copy # want VL229
vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'

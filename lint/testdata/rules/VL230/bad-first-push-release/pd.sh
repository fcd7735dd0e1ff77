# lint-version: 0.24.0
# v0.24.0 is the first release with NixlPushConnector (#35264, listed in its
# release notes): the pull connector on one host without RDMA is reported.
CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlPullConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 \
  --kv-transfer-config '{"kv_connector":"NixlPullConnector","kv_role":"kv_consumer"}' & # want VL230
wait

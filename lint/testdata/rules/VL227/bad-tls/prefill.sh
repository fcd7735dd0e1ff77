# lint-version: 0.12.0
# F10 (ai-dynamo/nixl#1846): UCX_TLS without a network transport.
export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.1 UCX_TLS=cuda_copy,cuda_ipc # want VL227
export NCCL_IB_GID_INDEX=3 # want VL227
vllm serve m --tensor-parallel-size 8 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'

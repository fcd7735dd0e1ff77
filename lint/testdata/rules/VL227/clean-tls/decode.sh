# lint-version: 0.12.0
export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.2 UCX_TLS=rc,ud,sm,^cuda_ipc UCX_IB_GID_INDEX=3 NCCL_IB_GID_INDEX=3
vllm serve m --tensor-parallel-size 8 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}'

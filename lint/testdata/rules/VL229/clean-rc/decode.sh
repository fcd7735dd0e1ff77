# lint-version: 0.19.0
export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.2 NCCL_IB_HCA=mlx5_0,mlx5_1
export UCX_TLS=^cuda_ipc
vllm serve m --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}'

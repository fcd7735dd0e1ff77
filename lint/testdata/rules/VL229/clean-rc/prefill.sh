# lint-version: 0.19.0
export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.1 NCCL_IB_HCA=mlx5_0,mlx5_1
export UCX_TLS=rc,cuda_copy,cuda_ipc,tcp
vllm serve m --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'

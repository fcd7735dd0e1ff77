# lint-version: 0.19.0
export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.2 UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1
export UCX_TLS=cuda_copy,cuda_ipc,tcp # want VL229
vllm serve m --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}'

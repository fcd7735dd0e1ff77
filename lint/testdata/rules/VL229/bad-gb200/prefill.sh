# lint-version: 0.19.0
# GB200 recipe transports (ai-dynamo/nixl#1614): no RDMA transport, so the KV
# crosses trays over TCP (vLLM #51377: no fabric handle on the KV cache).
export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.1 NCCL_IB_HCA=mlx5_0,mlx5_1
export UCX_TLS=cuda_copy,cuda_ipc,tcp # want VL229
vllm serve m --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'

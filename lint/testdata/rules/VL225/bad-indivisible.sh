# lint-version: 0.31.0
CUDA_VISIBLE_DEVICES=0,1 vllm serve m --port 8100 --tensor-parallel-size 2 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=2,3,4 VLLM_NIXL_SIDE_CHANNEL_PORT=5610 vllm serve m --port 8200 --tensor-parallel-size 3 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' & # want VL225

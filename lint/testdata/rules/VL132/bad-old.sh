# lint-version: 0.8.5
VLLM_USE_V1=0 CUDA_VISIBLE_DEVICES=0 vllm serve m --kv-transfer-config '{"kv_connector":"PyNcclConnector","kv_rank":0,"kv_parallel_size":2}' # want VL132

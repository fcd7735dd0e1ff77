# lint-version: 0.31.0
# The V0 connectors were unregistered by #21785 (2025-08-04).
vllm serve m --kv-transfer-config '{"kv_connector":"PyNcclConnector","kv_role":"kv_producer","kv_rank":0,"kv_parallel_size":2}' # want VL133

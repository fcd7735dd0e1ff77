# lint-version: 0.31.0
# P2pNcclConnector was removed by #44854 in v0.24.0 (its release notes): an error at 0.31.0.
vllm serve m --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_port":"21001"}' # want VL133

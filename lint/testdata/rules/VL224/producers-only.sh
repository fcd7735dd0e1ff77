# lint-version: 0.12.0
vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' # want VL224

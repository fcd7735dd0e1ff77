# lint-version: 0.31.0
vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"producer"}' # want VL132
vllm serve m --port 8001 --kv-transfer-config.kv_role kv_both # want VL132

# lint-version: 0.34.0
vllm serve m --kv-transfer-config '{"kv_connector":"NixlConector","kv_role":"kv_both"}' # want VL133
vllm serve m --port 8001 --kv-transfer-config '{"kv_connector":"MultiConnector","kv_role":"kv_both","kv_connector_extra_config":{"connectors":[{"kv_connector":"NixlConnector","kv_role":"kv_both"},{"kv_connector":"LMCacheConnector","kv_role":"kv_both"}]}}' # want VL133

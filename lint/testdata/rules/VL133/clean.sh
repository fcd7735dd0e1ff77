# lint-version: 0.10.1
vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
vllm serve m --port 8001 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer","kv_connector_module_path":"mooncake.mooncake_connector_v1"}' &

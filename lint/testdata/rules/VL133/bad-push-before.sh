# lint-version: 0.23.0
# NixlPushConnector first shipped in v0.24.0 (#35264; v0.23.0's release notes omit it).
vllm serve m --kv-transfer-config '{"kv_connector":"NixlPushConnector","kv_role":"kv_consumer"}' # want VL133

# lint-version: 0.8.5
# NixlConnector first shipped in v0.9.0 (#17751).
vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' # want VL133

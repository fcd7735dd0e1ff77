# lint-version: 0.8.5
vllm serve m --data-parallel-size 8 --enable-expert-parallel --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' # want VL133

# lint-version: 0.11.0
vllm serve m --data-parallel-size 8 --enable-expert-parallel --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' # want VL222

# lint-version: 0.22.1
# A model without state layers needs no conv state layout.
vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

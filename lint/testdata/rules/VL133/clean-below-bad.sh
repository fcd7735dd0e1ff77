vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
# lint-version: 0.6.4
# --kv-transfer-config came with PR #10502 (2024-12-01), after the v0.6.4.post1
# tag (a6221a144): 0.6.4 refuses the flag itself, so no connector is checked.
# want:1 VL102

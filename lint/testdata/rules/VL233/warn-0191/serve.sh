# lint-version: 0.19.1
# 0.19.1 was not read: whether it asserts the DS layout is not known (a warning); NIXL moves no GDN state before 0.22.0 (an error).
vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' # want VL233 VL233

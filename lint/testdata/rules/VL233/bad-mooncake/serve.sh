# lint-version: 0.22.1
# MooncakeConnector takes the first layer's attention backend and moves no GDN state before #46807 (issue #43765).
vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --tensor-parallel-size 4 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}' # want VL233

# lint-version: 0.22.1
# NixlConnector asserts the DS conv state layout for Mamba/GDN hybrids (vLLM #37635).
export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.1
vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' # want VL233

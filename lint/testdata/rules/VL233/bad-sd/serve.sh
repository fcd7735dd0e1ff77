# lint-version: 0.28.0
export VLLM_SSM_CONV_STATE_LAYOUT=SD # want VL233
vllm serve Qwen/Qwen3-Next-80B-A3B-Thinking --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

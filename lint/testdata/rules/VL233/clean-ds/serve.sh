# lint-version: 0.22.1
export VLLM_SSM_CONV_STATE_LAYOUT=DS
vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

# lint-version: 0.8.5
# The V0 engine, asked for, has the V0 connectors.
VLLM_USE_V1=0 python3 -m vllm.entrypoints.openai.api_server --model m --kv-transfer-config '{"kv_connector":"LMCacheConnector", "kv_role":"kv_both"}'

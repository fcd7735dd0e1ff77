# lint-version: 0.8.5
# vLLM PR #15960's thread (2025-04-28): LMCacheConnector, a V0 connector, on
# the V1 engine fails with "assert issubclass(connector_cls, KVConnectorBase_V1)".
python3 -m vllm.entrypoints.openai.api_server --model m --kv-transfer-config '{"kv_connector":"LMCacheConnector", "kv_role":"kv_both"}' # want VL133

# lint-version: 0.31.0
# vLLM refuses a connector without a role: "Please specify kv_role when
# kv_connector is set" (KVTransferConfig.__post_init__; F16 in the research).
vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector"}' # want VL132

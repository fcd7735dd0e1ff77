# Flags in an array keep the JSON one argument, without literal quotes.
COMMON_ARGS=(
  --tensor-parallel-size 8
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
)
vllm serve m "${COMMON_ARGS[@]}"

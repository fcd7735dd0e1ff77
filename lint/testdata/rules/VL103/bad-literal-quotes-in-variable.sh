# Quotes stored in a variable are not removed when it is expanded unquoted:
# vLLM receives '{"kv_connector":...}' with the quotes and refuses the JSON.
COMMON_ARGS="--tensor-parallel-size 8 --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'" # want VL103
vllm serve m $COMMON_ARGS

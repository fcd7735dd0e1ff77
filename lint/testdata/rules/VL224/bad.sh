# lint-version: 0.12.0
# The decode engine lacks the connector: it ignores kv_transfer_params and
# recomputes every prompt (kserve/kserve#5987).
CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' & # want VL224
CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 & # want VL224

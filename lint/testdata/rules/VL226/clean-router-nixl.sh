# NIXL engines behind the router's default connector.
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve Qwen/Qwen3-8B --port 8200 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
vllm-router --vllm-pd-disaggregation --prefill http://127.0.0.1:8100 --decode http://127.0.0.1:8200 --port 8000

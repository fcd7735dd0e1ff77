# lint-version: 0.26.0
# The same pair with "kv_buffer_device":"cpu": NIXL stages the KV in host
# memory (vLLM nixl utils.py _NIXL_SUPPORTED_DEVICE: cuda takes "cuda" or
# "cpu"), so the read is not a cuda_ipc GET.
CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_buffer_device":"cpu"}' &
CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer","kv_buffer_device":"cpu"}' &
wait

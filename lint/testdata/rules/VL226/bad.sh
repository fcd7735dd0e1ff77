# lint-version: 0.11.0
# vLLM #26896: the demo proxy sends max_tokens=1 to the prefiller but no
# kv_transfer_params, so the NIXL decoder recomputes every prompt.
CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
python3 examples/online_serving/disaggregated_serving/disagg_proxy_demo.py --model m --prefill localhost:8100 --decode localhost:8200 --port 8000 # want VL226

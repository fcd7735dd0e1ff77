# lint-version: 0.10.1
# vLLM #20965: 1P1D in one container, neither engine sets
# VLLM_NIXL_SIDE_CHANNEL_PORT, both bind the default 5557.
CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' & # want VL223

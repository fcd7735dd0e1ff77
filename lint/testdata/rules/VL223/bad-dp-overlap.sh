# lint-version: 0.12.0
# Ports are base + DP rank from 0.12: the prefill DP2 takes 5600-5601.
CUDA_VISIBLE_DEVICES=0,1 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 --data-parallel-size 2 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
CUDA_VISIBLE_DEVICES=2,3 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --data-parallel-size 2 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' & # want VL223

# lint-version: 0.13.0
# vLLM #21576: prefill TP above decode TP divides by zero at the handshake
# (p_remote_rank = self.tp_rank // tp_ratio) before #27274.
CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve m --port 8100 --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=4,5 VLLM_NIXL_SIDE_CHANNEL_PORT=5610 vllm serve m --port 8200 --tensor-parallel-size 2 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}' & # want VL225

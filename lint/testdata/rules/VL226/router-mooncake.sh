# vllm-router writes NIXL's kv_transfer_params unless --kv-connector says
# otherwise: in front of MooncakeConnector engines the prefiller sends no KV.
CUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen3-8B --port 8100 --tensor-parallel-size 2 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=2,3 vllm serve Qwen/Qwen3-8B --port 8200 --tensor-parallel-size 2 \
  --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer"}' &
vllm-router --vllm-pd-disaggregation --prefill http://127.0.0.1:8100 --decode http://127.0.0.1:8200 # want VL226

# lint-version: 0.11.0
# P/D on one host (vllm-project/router scripts/llama3.1, DP4_TEST_RESULTS.md):
# the prefill engine is an instance of its own, not a rank of the decode's DP group.
export VLLM_NIXL_SIDE_CHANNEL_PORT=8083
CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve m --port 8081 --data-parallel-size 4 --gpu-memory-utilization 0.9 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

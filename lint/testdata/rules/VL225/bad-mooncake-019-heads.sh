# lint-version: 0.19.0
# Qwen3-30B-A3B has 4 KV heads: decode TP 8 holds one replicated head a rank while a TP 1
# prefill rank holds 4, and _validate_asymmetric_region_lengths fails every transfer
# ("Mooncake source KV region length does not match the consumer TP ratio").
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-30B-A3B --port 8100 --tensor-parallel-size 1 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}' &
vllm serve Qwen/Qwen3-30B-A3B --port 8200 --tensor-parallel-size 8 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer"}' & # want VL225

# lint-version: 0.15.1
# Before vlaunch's first MooncakeConnector bundle (0.16.0) and the NIXL conv layout check (0.19.1/0.20.0) VL233 does not hold.
vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}'

VLLM_USE_V1=0 CUDA_VISIBLE_DEVICES=0 vllm serve m --kv-transfer-config '{"kv_connector":"PyNcclConnector","kv_rank":0,"kv_parallel_size":2}'
# lint-version: 0.6.4
# --kv-transfer-config came with PR #10502 (2024-12-01), after the v0.6.4.post1
# tag (a6221a144): 0.6.4 refuses the flag itself, so no connector is checked.
# want:1 VL102

export VLLM_USE_FLASHINFER_MOE_FP4=1
export VLLM_USE_NCCL_SYMM_MEM=1
export NCCL_CUMEM_ENABLE=1
export NCCL_MNNVL_ENABLE=1
export NCCL_NVLS_ENABLE=1

export UCX_NET_DEVICES=all   # or pin devices for your fabric

export CUDA_VISIBLE_DEVICES=0
export VLLM_NIXL_SIDE_CHANNEL_PORT=<unique_port>
export VLLM_NIXL_SIDE_CHANNEL_HOST=<routable_ip_of_this_host>  # when prefill/decode cross nodes

# prefill worker, DP rank 0
vllm serve nvidia/Kimi-K2.5-NVFP4 \
  --host 0.0.0.0 \
  --port <prefill_http_port_rank0> \
  --served-model-name nvidia/Kimi-K2.5-NVFP4 \
  --tensor-parallel-size 1 \
  --data-parallel-size 4 \
  --data-parallel-rank 0 \
  --data-parallel-address <prefill_dp_leader_ip> \
  --data-parallel-rpc-port <prefill_dp_rpc_port> \
  --enable-expert-parallel \
  --enforce-eager \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_load_failure_policy":"fail"}' \
  --trust-remote-code

# decode worker, DP rank 0
vllm serve nvidia/Kimi-K2.5-NVFP4 \
  --host 0.0.0.0 \
  --port <decode_http_port_rank0> \
  --served-model-name nvidia/Kimi-K2.5-NVFP4 \
  --tensor-parallel-size 1 \
  --data-parallel-size 16 \
  --data-parallel-rank 0 \
  --data-parallel-address <decode_dp_leader_ip> \
  --data-parallel-rpc-port <decode_dp_rpc_port> \
  --enable-expert-parallel \
  --compilation-config '{"cudagraph_mode":"FULL_DECODE_ONLY"}' \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer","kv_load_failure_policy":"fail"}' \
  --trust-remote-code

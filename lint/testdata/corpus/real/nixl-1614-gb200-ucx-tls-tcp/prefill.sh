export VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.1 VLLM_NIXL_SIDE_CHANNEL_PORT=5600
export UCX_CUDA_IPC_ENABLE_MNNVL=y UCX_MEMTYPE_CACHE=n UCX_MEMTYPE_REG_WHOLE=n
export UCX_TLS=cuda_copy,cuda_ipc,tcp
export NCCL_P2P_LEVEL=NVL NCCL_MNNVL_ENABLE=1 NCCL_CUMEM_ENABLE=1
vllm serve nvidia/Kimi-K2.5-NVFP4 --port 8100 --trust-remote-code \
  --tensor-parallel-size 1 --data-parallel-size 4 --data-parallel-size-local 4 --enable-expert-parallel \
  --all2all-backend flashinfer_nvlink_one_sided \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'

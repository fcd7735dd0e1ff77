# lint-version: 0.12.0
# One GPU, or DeepEP's NVSHMEM kernels: nothing goes through NCCL's peer-to-peer.
export NCCL_P2P_DISABLE=1 NCCL_IB_DISABLE=1
vllm serve Qwen/Qwen3-8B --port 8000
vllm serve Qwen/Qwen3-30B-A3B --port 8001 --data-parallel-size 4 --enable-expert-parallel --all2all-backend deepep_low_latency

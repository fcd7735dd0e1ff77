# lint-version: 0.12.0
export NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 # want VL131:info
vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 4 --enable-expert-parallel --all2all-backend allgather_reducescatter

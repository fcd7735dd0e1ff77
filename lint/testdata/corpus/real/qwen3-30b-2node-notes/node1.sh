# vlaunch:vllm-version=0.9.2
# Node 1
export NCCL_DEBUG=INFO
export HF_HOME=/mnt/nfs/songrun/huggingface
export NCCL_IB_HCA=mlx5_0,mlx5_2
export NCCL_IB_GID_INDEX=3 
export NCCL_SHM_DISABLE=1
export NCCL_P2P_DISABLE=1
vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507 \
    --port 8848 \
    --tensor-parallel-size 1 \
    --headless \
    --data-parallel-size 8 \
    --data-parallel-size-local 4 \
    --data-parallel-start-rank 4 \
    --data-parallel-address 10.0.12.1 \
    --data-parallel-rpc-port 13345 \
    --enable-expert-parallel \
    --no-enable-prefix-caching \
    --max-num-seqs 4 \
    --enforce-eager

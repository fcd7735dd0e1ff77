# vlaunch:vllm-version=0.9.2
# host 1 of 2; the DP address is on the fabric network, not the management one
export NCCL_IB_HCA=mlx5_1,mlx5_3
export NCCL_P2P_DISABLE=1
vllm serve /srv/weights/small-moe \
    --port 9700 \
    --headless \
    --data-parallel-size 8 \
    --data-parallel-size-local 4 \
    --data-parallel-start-rank 4 \
    --data-parallel-address 10.30.1.5 \
    --data-parallel-rpc-port 15200 \
    --enable-expert-parallel \
    --enforce-eager

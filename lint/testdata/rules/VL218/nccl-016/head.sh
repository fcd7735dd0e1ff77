# lint-version: 0.16.0
# NCCL_* reach Ray workers only from the prefix copy (PR #34383).
export GLOO_SOCKET_IFNAME=eth0
ray start --head --port=6379 --num-gpus 8
export NCCL_IB_HCA=mlx5_0 # want VL218
vllm serve m --tensor-parallel-size 16 --distributed-executor-backend ray

# lint-version: 0.11.2
# Set before ray start on every node: the workers inherit it.
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
ray start --head --port=6379 --num-gpus 8
vllm serve m --tensor-parallel-size 16 --distributed-executor-backend ray

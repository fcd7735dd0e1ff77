export NCCL_SOCKET_IFNAME=ib0
export GLOO_SOCKET_IFNAME=ib0
export VLLM_HOST_IP=192.168.10.11
ray start --head --port=6379 --node-ip-address=192.168.10.11 --num-gpus=2
# after the three workers joined:
vllm serve Qwen/Qwen3-30B-A3B \
    --tensor-parallel-size 2 \
    --data-parallel-size 4 \
    --enable-expert-parallel \
    --distributed-executor-backend ray \
    --port 8000

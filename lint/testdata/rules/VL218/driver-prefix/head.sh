# lint-version: 0.11.2
ray start --head --port=6379 --num-gpus 8
GLOO_SOCKET_IFNAME=eth0 vllm serve m --tensor-parallel-size 16 --distributed-executor-backend ray # want VL218

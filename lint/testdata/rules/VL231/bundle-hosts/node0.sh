# lint-version: 0.10.1
# a vlaunch bundle's hosts table (one row per node) gives the Ray cluster 2 GPUs
ray start --head --port 6379 --node-ip-address 10.0.0.1
vllm serve m --tensor-parallel-size 4 --distributed-executor-backend ray # want VL231

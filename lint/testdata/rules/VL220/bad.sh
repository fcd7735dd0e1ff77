# lint-version: 0.10.1
ray start --head --num-gpus 8
vllm serve m --tensor-parallel-size 4 --data-parallel-size 4 --distributed-executor-backend ray # want VL220

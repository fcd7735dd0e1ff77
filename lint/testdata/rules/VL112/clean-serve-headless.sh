# lint-version: 0.12.0
vllm serve m --distributed-executor-backend mp --pipeline-parallel-size 2 --nnodes 2 --node-rank 1 --master-addr 10.0.0.1 --headless

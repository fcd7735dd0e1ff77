# lint-version: 0.16.0
vllm serve m -dp 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 --headless --api-server-count 1 --data-parallel-address 10.0.0.1 # want VL112

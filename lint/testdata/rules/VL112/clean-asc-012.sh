# lint-version: 0.12.0
# 0.12 `vllm serve` runs headless (api_server_count < 1 or headless) and ignores the count.
vllm serve m -dp 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 --headless --api-server-count 1 --data-parallel-address 10.0.0.1

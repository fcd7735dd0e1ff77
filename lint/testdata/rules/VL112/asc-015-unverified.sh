# lint-version: 0.15.0
# 0.12 runs headless and ignores the count, 0.16 refuses it; no source pins
# 0.13-0.15, so 0.15 gets a warning rather than an error or silence.
vllm serve m -dp 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 --headless --api-server-count 1 --data-parallel-address 10.0.0.1 # want VL112

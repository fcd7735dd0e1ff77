vllm serve m -dp 2 --data-parallel-size-local 2 --data-parallel-address "10.0.0.1 " --data-parallel-rpc-port 13345 # want VL103
# lint-version: 0.9.0

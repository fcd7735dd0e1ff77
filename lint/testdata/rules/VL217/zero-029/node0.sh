# lint-version: 0.29.0
# gpustack #6221: the primary passes an explicit start rank 0.
export GLOO_SOCKET_IFNAME=eth0
vllm serve /models/qwen --tensor-parallel-size 2 --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-start-rank 0 --data-parallel-address 10.10.10.37 --data-parallel-rpc-port 40015 --port 40013 # want VL217

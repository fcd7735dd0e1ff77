# lint-version: 0.29.0
export GLOO_SOCKET_IFNAME=eth0
vllm serve /models/qwen --headless --tensor-parallel-size 2 --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-start-rank 1 --data-parallel-address 10.10.10.37 --data-parallel-rpc-port 40015

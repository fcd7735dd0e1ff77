# lint-version: 0.9.2
export GLOO_SOCKET_IFNAME=eth0
vllm serve m -dp 4 --data-parallel-size-local 2 --headless --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345

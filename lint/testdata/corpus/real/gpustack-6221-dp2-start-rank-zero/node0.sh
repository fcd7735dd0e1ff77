export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
vllm serve /models/qwen3-32b --tensor-parallel-size 2 --data-parallel-size 2 --data-parallel-size-local 1 \
  --data-parallel-start-rank 0 --data-parallel-address 10.10.10.37 --data-parallel-rpc-port 40015 \
  --distributed-executor-backend mp --host 10.10.10.37 --port 40013

vllm serve m --headless --data-parallel-size 4 --data-parallel-size-local 2 \
  --data-parallel-start-rank 2 --data-parallel-address 172.16.125.137 --data-parallel-rpc-port 13389

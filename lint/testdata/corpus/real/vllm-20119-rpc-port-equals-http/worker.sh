vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 1 --data-parallel-size 4 --data-parallel-size-local 2 \
  --data-parallel-start-rank 2 --headless --data-parallel-address 172.16.0.10 --data-parallel-rpc-port 8000 --enable-expert-parallel

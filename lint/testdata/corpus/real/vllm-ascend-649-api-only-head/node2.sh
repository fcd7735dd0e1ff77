# Node 2: all four engines
vllm serve $MODEL --headless --data-parallel-size 4 --data-parallel-size-local 4 \
                  --data-parallel-start-rank 0 \
                  --data-parallel-address 10.99.48.128 --data-parallel-rpc-port 13345

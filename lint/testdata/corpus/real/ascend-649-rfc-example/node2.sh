# Node 2
vllm serve $MODEL --headless --data-parallel-size-local 2 \ # run two dp ranks on node2
                  --data-parallel-start-rank 2 \ # the start dp rank is 2
                  --data-parallel-address 10.99.48.128 \
                  --data-parallel-rpc-port 13345

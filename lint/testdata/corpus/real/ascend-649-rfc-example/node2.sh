# second host
vllm serve $WEIGHTS --headless --data-parallel-size-local 2 \ # two more ranks
    --data-parallel-start-rank 2 \ # ranks 2 and 3
    --data-parallel-address 192.0.2.21 \
    --data-parallel-rpc-port 14600

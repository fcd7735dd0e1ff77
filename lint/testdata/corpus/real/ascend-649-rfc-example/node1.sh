# first host, 192.0.2.21
vllm serve $WEIGHTS --data-parallel-size 4 \
    --data-parallel-size-local 2 \ # two local ranks here
    --data-parallel-address 192.0.2.21 \
    --data-parallel-rpc-port 14600

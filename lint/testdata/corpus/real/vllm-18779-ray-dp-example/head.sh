# head host, 198.51.100.12: all four DP ranks via Ray
vllm serve $CKPT --data-parallel-size 4 --data-parallel-size-local 4 \
    --data-parallel-address 198.51.100.12 --data-parallel-rpc-port 15300
    --data-parallel-backend ray

VLLM_ALL2ALL_BACKEND=deepep_low_latency vllm serve /mnt/ckpt/moe-run7/step-9000 \
    --tensor-parallel-size 8 \
    --enable-expert-parallel \
    --data-parallel-size 2 \
    --data-parallel-size-local 1 \
    --data-parallel-start-rank 1 \
    --data-parallel-address 10.42.3.17 \
    --data-parallel-rpc-port 15100 \
    --headless

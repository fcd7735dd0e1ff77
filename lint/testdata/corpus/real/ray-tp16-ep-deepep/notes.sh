# on the first host
ray start --head --port=6400

# on the second host
ray start --address=198.51.100.7:6400

# back on the first host, once both hosts show up in `ray status`
VLLM_ALL2ALL_BACKEND=deepep_low_latency vllm serve \
    /mnt/ckpt/distill-moe/step-800 \
    --tensor-parallel-size 16 \
    --enable-expert-parallel \
    --port 9900

curl http://localhost:9900/v1/models

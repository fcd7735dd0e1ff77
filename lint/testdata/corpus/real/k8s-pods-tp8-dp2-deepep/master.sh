VLLM_ALL2ALL_BACKEND=deepep_low_latency vllm serve /proj-tango-pvc/users/akramusman01/models/dsrnn/x7_run4/checkpoint-32000/safetensors \
    --tensor-parallel-size 8 \
    --enable-expert-parallel \
    --data-parallel-size 2 \
    --data-parallel-size-local 1 \
    --data-parallel-address 10.244.76.240 \
    --data-parallel-rpc-port 13345 \
    --api-server-count 8 \
    --gpu-memory-utilization 0.95

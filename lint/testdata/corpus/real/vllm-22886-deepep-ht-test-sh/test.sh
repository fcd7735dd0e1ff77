#!/bin/bash
# vlaunch:vllm-version=0.10.0
# model_path=/data/model/deepseek_V3/DeepSeek-V3-Chat
model_path=/data/models/DeepSeek-V3-prune
ip_1=172.30.87.177 
rpc_port=30000
port=5000
node=$1

gpu_memory_utilization=0.9
max_model_len=4096
data_parallel_size=16
tensor_parallel_size=1
######################################################

# Node 1 (Primary - handles incoming requests)
if [ $node == 1 ] ; then
    data_parallel_size_local=8  
    data_parallel_start_rank=0  
    VLLM_ALL2ALL_BACKEND=deepep_high_throughput VLLM_USE_DEEP_GEMM=1 \
    CUDA_VISIBLE_DEVICES="0,1,2,3,4,5,6,7" \
    vllm serve ${model_path} \
    --host 0.0.0.0 \
    --port ${port} \
    --tensor-parallel-size ${tensor_parallel_size} \
    --enable-expert-parallel \
    --data-parallel-size ${data_parallel_size} \
    --data-parallel-size-local ${data_parallel_size_local} \
    --data-parallel-start-rank 0 \
    --data-parallel-address ${ip_1} \
    --data-parallel-rpc-port ${rpc_port}
fi

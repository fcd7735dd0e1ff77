#!/bin/bash
# vlaunch:vllm-version=0.10.0
# ./test.sh 1 on the primary, ./test.sh 2 on the secondary
ckpt=/srv/weights/dsv3-pruned
leader=198.51.100.30
rpc=15400
which=$1
dp=16

if [ $which == 1 ] ; then
    dp_local=8
    VLLM_ALL2ALL_BACKEND=deepep_high_throughput VLLM_USE_DEEP_GEMM=1 \
    CUDA_VISIBLE_DEVICES="0,1,2,3,4,5,6,7" \
    vllm serve ${ckpt} \
    --port 9020 \
    --tensor-parallel-size 1 \
    --enable-expert-parallel \
    --data-parallel-size ${dp} \
    --data-parallel-size-local ${dp_local} \
    --data-parallel-start-rank 0 \
    --data-parallel-address ${leader} \
    --data-parallel-rpc-port ${rpc}
fi

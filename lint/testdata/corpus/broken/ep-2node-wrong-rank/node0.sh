#!/usr/bin/env bash
# Expert parallel over two 8-GPU hosts, DP 16 with EP; this is the
# primary (198.51.100.20), ranks 0-7, DeepEP low-latency kernels.
set -euo pipefail
export GLOO_SOCKET_IFNAME=ens4f0
export NCCL_SOCKET_IFNAME=ens4f0

vllm serve /srv/weights/dsv3 \
    --tensor-parallel-size 1 \
    --enable-expert-parallel \
    --data-parallel-size 16 \
    --data-parallel-size-local 8 \
    --data-parallel-address 127.0.0.1 \
    --data-parallel-rpc-port 15620 \
    --api-server-count=4 \
    --all2all-backend deepep_low_latency
# want:13 VL206

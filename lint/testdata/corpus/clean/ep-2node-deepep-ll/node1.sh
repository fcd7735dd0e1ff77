#!/usr/bin/env bash
# Expert parallel, secondary host: same model and parallel flags,
# headless, DP ranks 8-15.
set -euo pipefail
export GLOO_SOCKET_IFNAME=ens4f0
export NCCL_SOCKET_IFNAME=ens4f0

vllm serve /srv/weights/dsv3 \
    --tensor-parallel-size 1 \
    --enable-expert-parallel \
    --data-parallel-size 16 \
    --data-parallel-size-local 8 \
    --data-parallel-start-rank 8 \
    --data-parallel-address 198.51.100.20 \
    --data-parallel-rpc-port 15620 \
    --headless \
    --all2all-backend deepep_low_latency

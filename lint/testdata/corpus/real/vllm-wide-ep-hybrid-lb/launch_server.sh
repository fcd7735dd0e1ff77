#!/bin/bash
# Wide-EP node launcher: DP 32 over four 8-GPU nodes, each node serving its
# own API (hybrid LB). LEAD_IP and RANK0 (0, 8, 16, 24) come from the caller.
set -euo pipefail

LEAD_IP=${LEAD_IP:-}
RANK0=${RANK0:-}

if [[ -z "$LEAD_IP" || -z "$RANK0" ]]; then
    echo "set LEAD_IP and RANK0" >&2
    exit 1
fi

export VLLM_USE_DEEP_GEMM=1
export VLLM_ALL2ALL_BACKEND=deepep_low_latency
export GLOO_SOCKET_IFNAME=ib0

uv run vllm serve /srv/weights/dsv3 \
  --data-parallel-hybrid-lb \
  --api-server-count 4 \
  --data-parallel-address "$LEAD_IP" \
  --data-parallel-rpc-port 15500 \
  --tensor-parallel-size 1 \
  --data-parallel-size 32 \
  --data-parallel-size-local 8 \
  --data-parallel-start-rank "$RANK0" \
  --enable-expert-parallel \
  --enable-dbo \
  --enable-eplb \
  --max-model-len 8192

#!/bin/bash
# lint-version: 0.10.1
# The same EP layout for a 0.10.x release, which picked the all-to-all
# backend from VLLM_ALL2ALL_BACKEND.
VLLM_ALL2ALL_BACKEND=deepep_low_latency VLLM_USE_DEEP_GEMM=1 \
  vllm serve /srv/weights/dsv3 --enable-expert-parallel --tensor-parallel-size 1 \
  --data-parallel-size 16 --data-parallel-size-local 8 \
  --data-parallel-address 198.51.100.20 --data-parallel-rpc-port 15620 --api-server-count=4

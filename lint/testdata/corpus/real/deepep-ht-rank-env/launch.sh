#!/bin/bash
# Same file on every node; the scheduler exports NODE_ID, LEADER_ID,
# NUM_NODES and LEADER_ADDR.
WEIGHTS=${1:-/srv/weights/small-moe}

if [ "$NODE_ID" -eq "$LEADER_ID" ]; then
  ROLE_FLAGS="--api-server-count=1"
else
  ROLE_FLAGS="--headless"
fi

vllm serve $WEIGHTS \
  --tensor-parallel-size 1 \
  --data-parallel-size ${NUM_NODES} \
  --data-parallel-size-local 1 \
  --data-parallel-start-rank ${NODE_ID} \
  --data-parallel-address ${LEADER_ADDR} \
  --data-parallel-rpc-port 14900 \
  --enable-expert-parallel \
  --all2all-backend deepep_high_throughput \
  --trust_remote_code \
  ${ROLE_FLAGS}

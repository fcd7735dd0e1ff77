#!/bin/bash
ROLE=${ROLE:-leader}
SERVE_MODEL=${SERVE_MODEL:-deepseek-ai/DeepSeek-V3}
SERVE_TP=1
SERVE_DP=16
SERVE_DP_LOCAL=8
START_RANK=${START_RANK:-8}
DP_MASTER_IP=${DP_MASTER_IP:-10.0.0.1}
DP_MASTER_PORT=13345
HTTP_PORT=8000
COMMON="--tensor-parallel-size ${SERVE_TP} --data-parallel-size ${SERVE_DP} --data-parallel-size-local ${SERVE_DP_LOCAL} \
  --data-parallel-address ${DP_MASTER_IP} --data-parallel-rpc-port ${DP_MASTER_PORT} \
  --data-parallel-backend mp --enable-expert-parallel --all2all-backend deepep_v2 \
  --max-model-len 8192 --gpu-memory-utilization 0.85 --trust-remote-code --dtype bfloat16"
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
if [ "$ROLE" = "leader" ]; then
  python3 -m dynamo.frontend --discovery-backend file --http-host 0.0.0.0 --http-port "$HTTP_PORT" > frontend.log 2>&1 &
  sleep 6
  exec python3 -m dynamo.vllm --model "$SERVE_MODEL" \
    --discovery-backend file --request-plane tcp --event-plane zmq \
    --kv-events-config '{"enable_kv_cache_events": false}' $COMMON
else
  exec python3 -m dynamo.vllm --model "$SERVE_MODEL" --data-parallel-start-rank "$START_RANK" --headless $COMMON
fi

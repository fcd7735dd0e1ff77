#!/bin/bash
# Ray cluster in containers (run_cluster.sh style), then one vllm serve on the
# head that spans both nodes with TP=8 x PP=2.
IMAGE=vllm/vllm-openai:v0.10.1
HEAD_IP=10.0.0.1
WORKER_IP=10.0.0.2

ssh "$HEAD_IP" docker run -d --entrypoint /bin/bash --network host --ipc host --gpus all \
  -e VLLM_HOST_IP="$HEAD_IP" -e GLOO_SOCKET_IFNAME=eth0 -e NCCL_SOCKET_IFNAME=eth0 \
  --name node -v /models:/models "$IMAGE" -c "'ray start --block --head --node-ip-address=$HEAD_IP --port=6379'"

ssh "$WORKER_IP" docker run -d --entrypoint /bin/bash --network host --ipc host --gpus all \
  -e VLLM_HOST_IP="$WORKER_IP" -e GLOO_SOCKET_IFNAME=eth0 -e NCCL_SOCKET_IFNAME=eth0 \
  --name node -v /models:/models "$IMAGE" -c "'ray start --block --address=$HEAD_IP:6379'"

ssh "$HEAD_IP" docker exec node vllm serve /models/Llama-3.1-405B \
  --tensor-parallel-size 8 --pipeline-parallel-size 2 --distributed-executor-backend ray

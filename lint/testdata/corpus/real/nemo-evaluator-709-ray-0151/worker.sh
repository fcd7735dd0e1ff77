export VLLM_HOST_IP=10.30.0.2 GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
export VLLM_USE_RAY_COMPILED_DAG_CHANNEL_TYPE=shm
ray start --address=10.30.0.1:6379 --node-ip-address=$VLLM_HOST_IP --node-manager-port=6380 \
  --object-manager-port=6381 --num-gpus=8 --block

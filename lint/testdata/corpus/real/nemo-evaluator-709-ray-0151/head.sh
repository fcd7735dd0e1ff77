export VLLM_HOST_IP=10.30.0.1 GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
export VLLM_USE_RAY_COMPILED_DAG_CHANNEL_TYPE=shm
ray start --head --node-ip-address=$VLLM_HOST_IP --port=6379 --node-manager-port=6380 \
  --object-manager-port=6381 --dashboard-port=8265 --num-gpus=8
sleep 60
export RAY_ADDRESS=$VLLM_HOST_IP:6379
vllm serve meta-llama/Llama-3.1-405B-Instruct --tensor-parallel-size 8 --pipeline-parallel-size 2 \
  --distributed-executor-backend ray --enforce-eager --disable-custom-all-reduce --port 8000

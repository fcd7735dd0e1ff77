# lint-version: 0.10.1
export VLLM_HOST_IP=$(hostname -i) # want VL219
ray start --head --port=6379 --node-ip-address=$VLLM_HOST_IP

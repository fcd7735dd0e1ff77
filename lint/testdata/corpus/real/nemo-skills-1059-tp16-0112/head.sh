export GLOO_SOCKET_IFNAME=bond0 NCCL_SOCKET_IFNAME=bond0
ray start --head --port=6379 --num-gpus=8
sleep 30
python -m vllm.entrypoints.openai.api_server --model /models/Llama-3.1-405B-Instruct \
  --tensor-parallel-size 16 --port 5000 --trust-remote-code

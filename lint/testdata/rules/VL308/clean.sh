export NCCL_SOCKET_IFNAME=eth0
docker run --gpus all --ipc=host -e NCCL_SOCKET_IFNAME vllm/vllm-openai:v0.10.1 meta-llama/Llama-3.1-8B-Instruct

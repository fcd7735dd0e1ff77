NCCL_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME
vllm serve meta-llama/Llama-3.1-8B-Instruct

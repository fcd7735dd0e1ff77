NCCL_SOCKET_IFNAME=eth0 # want VL123
vllm serve meta-llama/Llama-3.1-8B-Instruct

# lint-version: 0.10.1
export NCCL_SOCKET_IFNAME=192.168.1.10 # want VL108
export GLOO_SOCKET_IFNAME=eth0
vllm serve meta-llama/Llama-3.1-8B-Instruct

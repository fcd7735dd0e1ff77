export NCCL_IB_TC=106 NCCL_IB_SL=3 GLOO_SOCKET_IFNAME=eth0
vllm serve meta-llama/Llama-3.1-8B-Instruct

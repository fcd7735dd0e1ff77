export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
vllm serve deepseek-ai/DeepSeek-V3-0324 --config /etc/vllm/node1.yaml --headless --data-parallel-start-rank 8 -dp 16

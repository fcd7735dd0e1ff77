docker run --gpus all --ipc=host --network host -e GLOO_SOCKET_IFNAME=eth0 -e NCCL_SOCKET_IFNAME=eth0 vllm/vllm-openai:v0.10.1 deepseek-ai/DeepSeek-V3-0324 -dp 16 -dpl 8 --enable-expert-parallel --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345
# lint-version: 0.9.0

docker run --entrypoint vllm --gpus all --ipc=host --network host -e GLOO_SOCKET_IFNAME=eth0 -e NCCL_SOCKET_IFNAME=eth0 vllm/vllm-openai:v0.11.0 serve deepseek-ai/DeepSeek-V3-0324 -dp 16 -dpl 8 --enable-expert-parallel --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --headless --data-parallel-start-rank 8
# want-1 VL216
# lint-version: 0.9.0

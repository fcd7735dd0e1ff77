# Sizes, address and port come from a config file the linter does not see.
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
vllm serve deepseek-ai/DeepSeek-V3-0324 --config /etc/vllm/node0.yaml

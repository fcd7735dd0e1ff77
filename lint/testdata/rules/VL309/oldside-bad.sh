# want VL309
export NCCL_SOCKET_IFNAME=eth0
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --tensor-parallel-size 2
# lint-version: 0.8.5

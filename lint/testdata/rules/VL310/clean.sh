export NCCL_SOCKET_IFNAME=eth0 GLOO_SOCKET_IFNAME
VLLM_USE_DEEP_GEMM=1 vllm serve deepseek-ai/DeepSeek-V2-Lite --data-parallel-size 2 --enable-expert-parallel --all2all-backend deepep_low_latency

# lint-spec: ../../../specs/two-nodes.yaml
export GLOO_SOCKET_IFNAME=ens10f0 NCCL_SOCKET_IFNAME=ens10f0
vllm serve deepseek-ai/DeepSeek-V3-0324 -dp 24 -dpl 8 --enable-expert-parallel --data-parallel-address 10.0.0.1 --headless --data-parallel-start-rank 8 # want VL405

# lint-spec: ../../../specs/two-nodes.yaml
# No directive here: the spec's 0.22.1 applies, not node0.sh's directive, so the backends differ too. # want:5 VL211
export GLOO_SOCKET_IFNAME=ens10f0 NCCL_SOCKET_IFNAME=ens10f0
export VLLM_ALL2ALL_BACKEND=deepep_low_latency # want VL107
vllm serve deepseek-ai/DeepSeek-V3-0324 -dp 16 -dpl 8 --enable-expert-parallel --data-parallel-address 10.0.0.1 --headless --data-parallel-start-rank 8

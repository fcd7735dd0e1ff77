# lint-spec: ../../../specs/two-nodes.yaml
# vlaunch:vllm-version=0.11.0
# The directive beats the spec (0.22.1) for this file only.
export GLOO_SOCKET_IFNAME=ens10f0 NCCL_SOCKET_IFNAME=ens10f0
export VLLM_ALL2ALL_BACKEND=deepep_low_latency
vllm serve deepseek-ai/DeepSeek-V3-0324 -dp 16 -dpl 8 --enable-expert-parallel --data-parallel-address 10.0.0.1 --api-server-count 8

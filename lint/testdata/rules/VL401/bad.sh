# lint-spec: ../../specs/two-nodes.yaml
vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --enable-expert-parallel --data-parallel-address 10.0.0.9 --api-server-count 8 # want VL401

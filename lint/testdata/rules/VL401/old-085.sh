# lint-spec: ../../specs/two-nodes.yaml
# lint-version: 0.9.0
vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --enable-expert-parallel --data-parallel-address 10.0.0.9 # want VL401

# lint-spec: ../../specs/two-nodes-auto.yaml
# lint-version: 0.8.5
# the spec's two nodes give the Ray cluster 16 GPUs; TP 32 asks for 32 bundles
ray start --head --port=6379 --node-ip-address=10.0.0.1
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 32 --distributed-executor-backend ray # want VL231

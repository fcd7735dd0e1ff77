# lint-spec: ../../specs/two-nodes-auto.yaml
# lint-version: 0.10.1
ray start --head --port=6379 --node-ip-address=10.0.0.1
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --pipeline-parallel-size 2 --distributed-executor-backend ray

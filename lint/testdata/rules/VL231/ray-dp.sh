# lint-spec: ../../specs/two-nodes-auto.yaml
# lint-version: 0.34.0
# Ray DP backend: every DP rank's engine is placed on the cluster (TP x PP x DP = 32)
ray start --head --port=6379 --node-ip-address=10.0.0.1
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --data-parallel-size 4 --data-parallel-backend ray # want VL231

# lint-version: 0.10.1
# without a spec the cluster's size is unknown: a worker script may run on
# several nodes, so its --num-gpus is a lower bound
ray start --head --port=6379 --node-ip-address=10.0.0.1 --num-gpus=8
ray start --address=10.0.0.1:6379 --num-gpus=8 --block
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 32 --distributed-executor-backend ray

# lint-version: 0.11.2
ray start --head --num-gpus 4
vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 8 --distributed-executor-backend ray

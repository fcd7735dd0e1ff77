vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 8 --gpu-memory-utilization 0.9 --max-model-len 32k --compilation-config '{"level": 3}'

vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor_parallel_size=2 -tp 2 --max-model-len 32k

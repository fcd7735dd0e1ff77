vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.99 # want VL114

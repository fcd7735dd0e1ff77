# vlaunch:disable=VL114 benchmark box, nothing else runs on it
vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.99

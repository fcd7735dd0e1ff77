# vlaunch:disable=VL114 we know # want VL003
vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.9

vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size eight --gpu-memory-utilization 90 # want VL103 VL103
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001 --compilation-config {level:3} # want VL103

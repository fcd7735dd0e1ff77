vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-paralel-size 2 --max_model_len=8192 --gpu-memory-utilisation 0.9 # want VL101 VL101

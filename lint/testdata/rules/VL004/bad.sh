vllm serve meta-llama/Llama-3.1-8B-Instruct --port "$1" # want VL004

vllm serve meta-llama/Llama-3.1-8B-Instruct --headless # want VL112

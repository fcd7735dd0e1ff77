vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8

vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp9 # want VL104
# lint-version: 0.8.5

# lint-version: 0.8.0
# want-1 VL006
vllm serve meta-llama/Llama-3.1-8B-Instruct

# lint-version: 0.4.0
# want-1 VL006
vllm serve meta-llama/Llama-3.1-8B-Instruct

# lint-version: 0.10.1
vllm serve meta-llama/Llama-3.1-8B-Instruct

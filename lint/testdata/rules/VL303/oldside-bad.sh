vllm serve meta-llama/Llama-3.1-8B-Instruct
  --max-model-len 8192 # want VL303
# lint-version: 0.8.5

vllm serve meta-llama/Llama-3.1-8B-Instruct 8192 --max-model-len # want VL124 VL103
# lint-version: 0.8.5

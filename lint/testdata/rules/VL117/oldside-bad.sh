vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 200k # want VL117
# lint-version: 0.8.5

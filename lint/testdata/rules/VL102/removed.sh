# lint-version: 0.18.0
vllm serve meta-llama/Llama-3.1-8B-Instruct --swap-space 16 # want VL102

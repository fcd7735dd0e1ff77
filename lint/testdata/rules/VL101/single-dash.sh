vllm serve meta-llama/Llama-3.1-8B-Instruct -language-model-only # want VL101

# vlaunch:vllm-version=latest # want VL007
vllm serve meta-llama/Llama-3.1-8B-Instruct

# vlaunch:vllm-version=0.8.0 # want VL006
vllm serve meta-llama/Llama-3.1-8B-Instruct

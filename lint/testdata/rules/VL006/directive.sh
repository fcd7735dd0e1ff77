# vlaunch:vllm-version=0.4.0 # want VL006
vllm serve meta-llama/Llama-3.1-8B-Instruct

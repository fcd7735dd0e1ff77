vllm serve meta-llama/Llama-3.1-8B-Instruct \ 
  --max-model-len 8192
# want-2 VL302
# want-2 VL303
# lint-version: 0.8.5

vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --tensor-parallel-size 1 # TP only \
  --max-model-len 8192
# want-2 VL301

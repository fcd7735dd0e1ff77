vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --tensor-parallel-size 1 # TP only \
  --max-model-len 8192
# want-2 VL301
# With an unresolved model the comment words are still not reported one by one
vllm serve $MODEL --data-parallel-size 4 \ # run two ranks # want VL301
  --port 8000 # want VL303
# lint-version: 0.8.5
